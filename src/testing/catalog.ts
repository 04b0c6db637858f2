/**
 * The catalog API v3 of the Catalog API documentation (and the endpoints seen in recorded answers), over a seeded,
 * deterministic catalog: a category tree (root 1 → families → leaves), SKUs with products and
 * reviews, shops with reviews and locations, manufacturers. Answers are `{name: {...}}` for one
 * resource and `{names: [...], meta}` for collections; ETags, 304 and rate limits come from the core.
 */
import { createBooks } from './books.js';
import type { CoreContext } from './context.js';
import { paginate } from './paginate.js';
import { createRandom, type Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import { cents, copy, fail, json, readJsonBody, timestamp } from './wire.js';

type Json = Record<string, unknown>;

export interface MockCategory extends Json {
  id: number;
  name: string;
  parent_id: number;
  children_count: number;
  family_id: number;
}
export interface MockSku extends Json {
  id: number;
  name: string;
  category_id: number;
  manufacturer_id: number;
  price_min: number;
}

const FAMILIES = [
  { id: 2, name: 'Technology', leaves: [[40, 'Mobile phones', 120], [41, 'Laptops', 30], [42, 'Headphones', 26]] },
  { id: 3, name: 'Home & Garden', leaves: [[50, 'Coffee machines', 40], [51, 'Vacuum cleaners', 12]] },
  { id: 4, name: 'Fashion', leaves: [[60, 'Sneakers', 25], [61, 'Watches', 0]] },
] as const;
const MANUFACTURERS = ['Apple', 'Samsung', 'Xiaomi', 'Sony', 'Bosch', 'Philips', 'Nike', 'Lenovo'];
const SHOPS = ['Kotsovolos Online', 'e-shop Athens', 'Plaisio Store', 'You Tech', 'Public Market'];
const ORDER_BY_METHODS = { pricevat: 'Price', rank: 'Relevance', rating: 'Rating', popularity: 'Popularity' };
/** The account token's user (account.ts): the author of reviews written through the API. */
const REVIEWER_ID = 334_941;
/**
 * The review form: answer ids as recorded, so a recorded request body works as is. Choosing
 * an `eval_sentiment` answer adds its `sentiment` label to the review's positive, mediocre or
 * negative sentiments (Yes, So-so, No).
 */
const REVIEW_QUESTIONS = [
  { text: 'How do you use your phone?', type: 'profiling_multiple', sentiment: '', answers: [[546, 'Calls'], [547, 'Social media'], [548, 'Photos and video'], [549, 'Browsing']] },
  { text: 'Is it fast in use?', type: 'eval_sentiment', sentiment: 'Speed', answers: [[555, 'Yes'], [556, 'So-so'], [557, 'No']] },
  { text: 'Is it worth its price?', type: 'eval_sentiment', sentiment: 'Value for money', answers: [[561, 'Yes'], [562, 'So-so'], [563, 'No']] },
  { text: 'Does its screen have a good resolution?', type: 'eval_sentiment', sentiment: 'Screen resolution', answers: [[3944, 'Yes'], [3945, 'So-so'], [3946, 'No']] },
] as const;
const SENTIMENT_KEYS = ['positive', 'mediocre', 'negative'] as const;
const FLAGS = [
  { reason: 'bad_language', description: 'Offensive language' },
  { reason: 'wrong_section', description: 'Posted in the wrong section' },
  { reason: 'spam', description: 'Spam or advertising' },
];

export function createCatalog(core: CoreContext) {
  const random: Random = createRandom(core.seed ^ 0x5eed);
  const site = 'https://www.marketplace.test';
  const categories = new Map<number, MockCategory>();
  const skusByCategory = new Map<number, MockSku[]>();
  const skus = new Map<number, MockSku>();
  const products = new Map<number, Json>();
  const productsBySku = new Map<number, number[]>();
  const reviewsBySku = new Map<number, Json[]>();
  /** Answer ids of the reviews written through the API, for the edit form. */
  const reviewAnswers = new Map<number, number[]>();
  const manufacturers = MANUFACTURERS.map((name, i) => ({ id: 101 + i, name, image_url: `${site}/images/manufacturers/${101 + i}.png` }));
  let nextSkuId = 3_000_001;
  let nextProductId = 14_000_001;
  let nextReviewId = 200_001;
  let nextVoteId = 500_001;
  /** Bumped by every added SKU: sorted listings are cached until then (benchmarks page through 10,000). */
  let version = 0;
  const sortedCache = new Map<string, { version: number; list: MockSku[] }>();

  const category = (id: number, name: string, parentId: number, familyId: number, path: number[], leafCount: number): MockCategory => ({
    id,
    name,
    children_count: leafCount,
    image_url: `${site}/images/categories/${id}.png`,
    parent_id: parentId,
    fashion: familyId === 4,
    layout_mode: familyId === 4 ? 'tiles' : 'list',
    web_uri: `${site}/c/${id}/${name.toLowerCase().replace(/\W+/g, '-')}.html`,
    code: name.toLowerCase().replace(/\W+/g, '_'),
    path: path.join(','),
    show_specifications: true,
    manufacturer_title: 'Manufacturer',
    family_id: familyId,
  });

  const shops = SHOPS.map((name, i) => {
    const id = 1001 + i;
    return {
      id,
      name,
      link: `https://shop${id}.example`,
      phone: `21000000${i}`,
      image_url: `${site}/images/shops/${id}.png`,
      thumbshot_url: `${site}/images/shops/${id}-thumb.png`,
      web_uri: `${site}/m/${id}`,
      reviews_count: 12,
      latest_reviews_count: 10,
      review_score: Math.round((3.5 + random.next() * 1.5) * 10) / 10,
      payment_methods: { credit_card: true, paypal: i % 2 === 0, bank: true, spot_cash: i !== 3, installments: '12' },
      shipping: { free: i === 0, free_from: i === 0 ? null : 50, free_from_info: null, min_price: '2.90', shipping_cost_enabled: true },
      extra_info: { time_on_platform: `${i + 2} years`, orders_per_week: '100+' },
      top_positive_reasons: ['Fast delivery', 'Good packaging'],
    };
  });
  const shopReviews = new Map(
    shops.map((shop) => [
      shop.id,
      Array.from({ length: 12 }, (_, i) => {
        const negative = i % 4 === 3;
        return {
          id: shop.id * 100 + i,
          user_id: 50_000 + i,
          review: negative ? 'Late delivery.' : 'Great shop, fast delivery.',
          rating: negative ? 2 : 5 - (i % 2),
          shop_reply: negative ? 'Sorry, we are working on it.' : null,
          created_at: timestamp(Date.UTC(2026, 0, 1 + i)),
          negative,
          reasons: negative ? ['Late delivery'] : ['Fast delivery'],
        };
      }),
    ]),
  );
  const locations = new Map(
    shops.map((shop, i) => [
      shop.id,
      [0, 1].map((n) => ({
        id: shop.id * 10 + n,
        headquarter: n === 0,
        pickup_point: true,
        store: true,
        phones: [`21000001${i}${n}`],
        full_address: `Ermou ${10 + n}, 10563 Athens`,
        format: 'structured',
        lat: (37.975 + i * 0.01 + n * 0.001).toFixed(6),
        lng: (23.735 + i * 0.01).toFixed(6),
        info: 'Mon-Fri 9:00-21:00',
        address: { id: shop.id * 10 + n, street_number: String(10 + n), street: 'Ermou', postcode: '10563', city: 'Athens', region: 'Attica', country: 'GR' },
      })),
    ]),
  );

  const addSku = (categoryId: number): MockSku => {
    const id = nextSkuId++;
    const manufacturer = random.pick(manufacturers);
    const leaf = categories.get(categoryId);
    const name = `${manufacturer.name} ${leaf?.name.replace(/s$/, '') ?? 'Item'} ${id % 1000}`;
    const priceMin = random.int(10, 900) + 0.99;
    // The very first SKU is the showcase: offers from every shop and a page-able set of reviews.
    const showcase = id === 3_000_001;
    const offers = showcase ? shops.length : random.int(1, 5);
    const reviews = showcase ? 7 : random.int(0, 8);
    const sku: MockSku = {
      id,
      ean: `520${String(id).padStart(10, '0')}`,
      pn: `PN-${id}`,
      name,
      display_name: name,
      category_id: categoryId,
      manufacturer_id: manufacturer.id,
      first_product_shop_info: `${shops[0]?.id}|${shops[0]?.name}|shop-${shops[0]?.id}`,
      click_url: null,
      price_max: cents(priceMin * 1.2),
      price_min: priceMin,
      reviewscore: reviews ? Math.round((3 + random.next() * 2) * 10) / 10 : 0,
      shop_count: offers,
      reviews_count: reviews,
      plain_spec_summary: `Colour: black, Weight: ${random.int(100, 3000)} g`,
      future: false,
      virtual: false,
      images: { main: `${site}/images/skus/${id}.jpg`, alternatives: [] },
      web_uri: `${site}/s/${id}.html`,
      comparable: true,
      reviewable: true,
      name_source: 'display_name',
      sizes: null,
      ecommerce_enabled: true,
      description: `${name}: a dependable choice.`,
    };
    skus.set(id, sku);
    version++;
    const list = skusByCategory.get(categoryId) ?? [];
    list.push(sku);
    skusByCategory.set(categoryId, list);
    const productIds: number[] = [];
    for (let i = 0; i < offers; i++) {
      const shop = shops[i % shops.length] as (typeof shops)[number];
      const productId = nextProductId++;
      const price = cents(priceMin * (1 + i * 0.05));
      products.set(productId, {
        id: productId,
        name: name.toUpperCase(),
        sku_id: id,
        shop_id: shop.id,
        category_id: categoryId,
        availability: 'Delivery in 1 to 3 days',
        click_url: `${site}/products/show/${productId}`,
        shop_uid: String(random.int(1, 999_999)).padStart(6, '0'),
        expenses: null,
        web_uri: `${site}/products/show/${productId}`,
        sizes: [],
        price,
        immediate_pickup: i === 0,
        blp: { shipping_cost: 0, payment_method_cost: 0, final_price: price },
      });
      productIds.push(productId);
    }
    productsBySku.set(id, productIds);
    reviewsBySku.set(
      id,
      Array.from({ length: reviews }, (_, i) => ({
        id: nextReviewId++,
        user_id: 60_000 + i,
        review: i % 3 === 2 ? 'Battery could be better.' : 'Very happy with it.',
        rating: 5 - (i % 3),
        created_at: timestamp(Date.UTC(2026, 1, 1 + i)),
        demoted: false,
        votes_count: 0,
        helpful_votes_count: 0,
        voted: false,
        flagged: false,
        helpful: false,
      })),
    );
    return sku;
  };

  // The tree: root 1 → families → leaves; then the leaves' SKUs, in a fixed order so the seed decides everything.
  categories.set(1, category(1, 'All categories', 0, 1, [1], FAMILIES.length));
  for (const family of FAMILIES) {
    categories.set(family.id, category(family.id, family.name, 1, family.id, [1, family.id], family.leaves.length));
    for (const [id, name] of family.leaves) categories.set(id, category(id, name, family.id, family.id, [1, family.id, id], 0));
  }
  for (const family of FAMILIES) {
    for (const [id, , count] of family.leaves) {
      skusByCategory.set(id, []);
      for (let i = 0; i < count; i++) addSku(id);
    }
  }

  // ---- lookups ---------------------------------------------------------------------------

  const notFound = (kind: string, id: string): never => fail(404, 'RecordNotFound', `Couldn't find ${kind} with 'id'=${id}`);
  const numericId = (raw: string | undefined, kind: string) => {
    const id = Number(raw);
    if (!Number.isInteger(id)) notFound(kind, raw ?? '');
    return id;
  };
  const findCategory = (raw?: string) => categories.get(numericId(raw, 'Category')) ?? notFound('Category', raw ?? '');
  const findSku = (raw?: string) => skus.get(numericId(raw, 'Sku')) ?? notFound('Sku', raw ?? '');
  const findShop = (raw?: string) => shops.find((s) => s.id === numericId(raw, 'Shop')) ?? notFound('Shop', raw ?? '');
  const findManufacturer = (raw?: string) =>
    manufacturers.find((m) => m.id === numericId(raw, 'Manufacturer')) ?? notFound('Manufacturer', raw ?? '');
  const leafOf = (raw?: string) => {
    const found = findCategory(raw);
    if (found.children_count > 0) fail(400, 'InvalidParameter', `Category ${found.id} is not a leaf category`);
    return found;
  };
  const singleView = (c: MockCategory) => ({
    ...c,
    show_manufacturers_filter: true,
    adult: false,
    show_spec_summary: true,
    reviewable: c.children_count === 0,
    comparable: c.children_count === 0,
    onclick_behaviour: 'skus',
    unit_price_label: '',
  });
  const arrayParam = (url: URL, name: string) =>
    [...url.searchParams.getAll(`${name}[]`), ...url.searchParams.getAll(name).flatMap((v) => v.split(','))].filter(Boolean).map(Number);
  const sortSkus = (list: MockSku[], orderBy: string, dir: string) => {
    const key: Record<string, (s: MockSku) => number> = {
      pricevat: (s) => s.price_min,
      price: (s) => s.price_min,
      rating: (s) => Number(s.reviewscore),
      popularity: (s) => Number(s.shop_count) * 1000 + Number(s.reviews_count),
      rank: (s) => -s.id,
    };
    const by = key[orderBy] ?? key.popularity;
    const sign = dir === 'asc' ? 1 : -1;
    return [...list].sort((a, b) => sign * ((by?.(a) ?? 0) - (by?.(b) ?? 0)) || a.id - b.id);
  };
  const ratingBreakdown = (ratings: number[]) =>
    [5, 4, 3, 2, 1].map((star) => {
      const count = ratings.filter((r) => r === star).length;
      return { star, percentage: ratings.length ? Math.round((count / ratings.length) * 100) : 0, count };
    });

  // ---- handlers --------------------------------------------------------------------------

  const get = (pattern: string, handler: (c: RouteContext) => Response | Promise<Response>): Route => ({
    method: 'GET',
    pattern,
    api: 'catalog',
    handler,
  });

  const categorySkus = ({ url, params }: RouteContext) => {
    const leaf = leafOf(params.id);
    const orderBy = url.searchParams.get('order_by') ?? 'popularity';
    if (!(orderBy in ORDER_BY_METHODS)) fail(400, 'InvalidParameter', `order_by must be one of ${Object.keys(ORDER_BY_METHODS).join(', ')}`);
    const dir = url.searchParams.get('order_dir') ?? 'desc';
    const key = `${leaf.id}|${orderBy}|${dir}`;
    let cached = sortedCache.get(key);
    if (cached?.version !== version) {
      cached = { version, list: sortSkus(skusByCategory.get(leaf.id) ?? [], orderBy, dir) };
      sortedCache.set(key, cached);
    }
    let list = cached.list;
    const makers = arrayParam(url, 'manufacturer_ids');
    if (makers.length) list = list.filter((s) => makers.includes(s.manufacturer_id));
    const q = url.searchParams.get('q')?.toLowerCase();
    if (q) list = list.filter((s) => s.name.toLowerCase().includes(q));
    const meta: Json = { ordered_by: orderBy, order_by_methods: ORDER_BY_METHODS };
    if ((url.searchParams.get('include_meta') ?? '').split(',').includes('available_filters')) {
      const counts: Record<string, number> = {};
      for (const sku of list) counts[sku.manufacturer_id] = (counts[sku.manufacturer_id] ?? 0) + 1;
      meta.available_filters = { filters: {}, manufacturers: counts, shops: {}, availabilities: [], distances: [] };
    }
    return paginate(url, 'skus', list, meta);
  };

  const skuReviews = ({ url, params }: RouteContext) => {
    const sku = findSku(params.id);
    const reviews = reviewsBySku.get(sku.id) ?? [];
    const wanted = (url.searchParams.get('include_meta') ?? '').split(',');
    const meta: Json = {};
    if (wanted.includes('sku_rating_breakdown')) meta.sku_rating_breakdown = ratingBreakdown(reviews.map((r) => Number(r.rating)));
    if (wanted.includes('sku_reviews_aggregation')) meta.sku_reviews_aggregation = [{ label: 'Value for money', score: 90, style: 'good' }];
    return paginate(url, 'reviews', reviews, meta);
  };

  const search = ({ url }: RouteContext) => {
    const q = url.searchParams.get('q') ?? '';
    if ([...q.trim()].length < 2) fail(422, 'InvalidSearch', 'The search query must be at least 2 characters long');
    const needle = q.toLowerCase();
    const matches = new Map<number, number>();
    for (const sku of skus.values()) {
      if (sku.name.toLowerCase().includes(needle)) matches.set(sku.category_id, (matches.get(sku.category_id) ?? 0) + 1);
    }
    const found = [...matches].map(([id, count]) => ({ ...(categories.get(id) as MockCategory), match_count: count }));
    const strong = manufacturers.find((m) => m.name.toLowerCase() === needle);
    return paginate(url, 'categories', found, { q, alternatives: [], strong_matches: strong ? { manufacturer: strong } : {} });
  };

  const reviewForm = (chosen: readonly number[] = []) => ({
    requires_body: false,
    questions: REVIEW_QUESTIONS.map(({ text, type, answers }) => ({
      text,
      type,
      answers: answers.map(([id, label]) => (chosen.includes(id) ? { id, text: label, selected: true } : { id, text: label })),
    })),
  });
  const sentimentsOf = (answerIds: readonly number[]) => {
    const sentiments: Record<string, string[]> = {};
    for (const question of REVIEW_QUESTIONS) {
      if (question.type !== 'eval_sentiment') continue;
      const index = question.answers.findIndex(([id]) => answerIds.includes(id));
      const key = SENTIMENT_KEYS[index];
      if (key) sentiments[key] = [...(sentiments[key] ?? []), question.sentiment];
    }
    return sentiments;
  };
  const knownAnswers = new Set<number>(REVIEW_QUESTIONS.flatMap((q) => q.answers.map(([id]) => id)));
  /** Checks the fields present in `{ review: {...} }`; all problems in one 422, as the service's validation errors. */
  const reviewFields = async (request: Request, requireRating: boolean) => {
    const fields = (await readJsonBody(request)).review;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return fail(400, 'InvalidParameter', 'review is required');
    const { rating, review, answer_ids: answerIds } = fields as Json;
    const problems: string[] = [];
    if ((rating !== undefined || requireRating) && !(Number.isInteger(rating) && (rating as number) >= 1 && (rating as number) <= 5)) {
      problems.push('Rating must be an integer from 1 to 5');
    }
    if (review !== undefined && review !== null && typeof review !== 'string') problems.push('Review must be text');
    if (answerIds !== undefined && !(Array.isArray(answerIds) && answerIds.every((id) => knownAnswers.has(id)))) {
      problems.push('Answer ids must be ids of the review form\'s answers');
    }
    if (problems.length) fail(422, 'InvalidReview', ...problems);
    return { rating: rating as number | undefined, review: review as string | null | undefined, answerIds: answerIds as number[] | undefined };
  };
  /** The user's own review of a SKU (another user's review is not found, as the service scopes writes to the user). */
  const ownReview = (skuRaw?: string, reviewRaw?: string) => {
    const sku = findSku(skuRaw);
    const list = reviewsBySku.get(sku.id) ?? [];
    const review = list.find((r) => r.id === Number(reviewRaw) && r.user_id === REVIEWER_ID);
    return review ? { sku, list, review } : notFound('SkuReview', reviewRaw ?? '');
  };
  /** A written review as the create and update answers carry it (no per-user voted/flagged/helpful). */
  const writtenView = ({ voted: _v, flagged: _f, helpful: _h, ...rest }: Json) => rest;

  const personalization = {
    location: { address_id: 1, label: 'Ermou 10, Athens', lat: '37.975', lng: '23.735', type: 'address', country_code: 'GR' },
    payment_method: { type: 'card' },
  };

  const routes: Route[] = [
    get('/categories', ({ url }) => paginate(url, 'categories', [...categories.values()])),
    get('/categories/root', () => json(200, { category: singleView(categories.get(1) as MockCategory) })),
    get('/categories/:id', ({ params }) => json(200, { category: singleView(findCategory(params.id)) })),
    get('/categories/:id/parent', ({ params }) => {
      const child = findCategory(params.id);
      return json(200, { category: singleView(categories.get(child.parent_id) ?? notFound('Category', String(child.parent_id))) });
    }),
    get('/categories/:id/children', ({ params }) => {
      const parent = findCategory(params.id);
      return json(200, { categories: [...categories.values()].filter((c) => c.parent_id === parent.id && c.id !== 1) });
    }),
    get('/categories/:id/specifications', ({ url, params }) => {
      const c = findCategory(params.id);
      const withGroups = (url.searchParams.get('include') ?? '').split(',').includes('group');
      const specifications = ['Colour', 'Weight', 'Warranty'].map((name, i) => ({
        id: c.id * 100 + i,
        name,
        values: [],
        order: i,
        unit: name === 'Weight' ? 'g' : '',
        ...(withGroups ? { group_id: c.id * 10 } : {}),
      }));
      return json(200, withGroups ? { specifications, groups: [{ id: c.id * 10, name: 'General', order: 0 }] } : { specifications });
    }),
    get('/categories/:id/skus', categorySkus),
    get('/categories/:id/filter_groups', ({ params }) => {
      const c = leafOf(params.id);
      return json(200, {
        filter_groups: [
          { id: c.id * 10 + 1, name: 'Price', active: true, category_id: c.id, created_at: timestamp(Date.UTC(2025, 0, 1)), updated_at: timestamp(Date.UTC(2025, 0, 1)), hint: '', combined: false, filter_type: 0 },
          { id: c.id * 10 + 2, name: 'Colour', active: true, category_id: c.id, created_at: timestamp(Date.UTC(2025, 0, 1)), updated_at: timestamp(Date.UTC(2025, 0, 1)), hint: '', combined: true, filter_type: 2 },
        ],
      });
    }),
    get('/categories/:id/manufacturers', ({ url, params }) => {
      const c = findCategory(params.id);
      const ids = new Set((skusByCategory.get(c.id) ?? []).map((s) => s.manufacturer_id));
      return paginate(url, 'manufacturers', manufacturers.filter((m) => ids.has(m.id)));
    }),
    get('/skus/:id', ({ params }) => json(200, { sku: findSku(params.id) })),
    get('/skus/:id/specifications', ({ params }) => {
      const sku = findSku(params.id);
      return json(200, {
        specifications: [{ id: 1, name: 'Colour', values: ['Black'], order: 0, unit: '' }],
        meta: { full_description: `${sku.description} The full description, as the specifications meta carries it.` },
      });
    }),
    get('/skus/:id/price_history', ({ params }) => {
      const sku = findSku(params.id);
      const days = [0, 30, 60, 90, 120, 150].map((d) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));
      return json(200, {
        history: {
          average: days.map((date, i) => ({ date, price: cents(sku.price_min * (1.1 - i * 0.01)) })),
          lowest: days.map((date) => ({ date, price: sku.price_min, shop_name: shops[0]?.name })),
        },
      });
    }),
    get('/skus/:id/similar', ({ params }) => {
      const sku = findSku(params.id);
      return json(200, { skus: (skusByCategory.get(sku.category_id) ?? []).filter((s) => s.id !== sku.id).slice(0, 5), meta: {} });
    }),
    get('/skus/:id/products', ({ params }) => {
      const sku = findSku(params.id);
      const list = (productsBySku.get(sku.id) ?? []).map((id) => products.get(id));
      return json(200, {
        products: list,
        meta: { pagination: { total_results: list.length, total_pages: 1, page: 1, per: 25 }, ordered_by: 'net_price', personalization },
      });
    }),
    get('/skus/:id/product_cards', ({ url, params }) => {
      const sku = findSku(params.id);
      // One group per shop, one card per offer, the costs (blp) on the card.
      const groups = (productsBySku.get(sku.id) ?? []).map((id) => {
        const { blp, ...product } = products.get(id) as Json;
        return { cards: [{ products: [product], shop: shops.find((s) => s.id === product.shop_id), blp }] };
      });
      return paginate(url, 'product_cards', groups, { ordered_by: 'net_price', personalization });
    }),
    get('/skus/:id/reviews', skuReviews),
    {
      method: 'GET',
      pattern: '/skus/:id/reviews/new',
      api: 'account',
      handler: ({ params }) => {
        findSku(params.id);
        return json(200, { review_form: reviewForm() });
      },
    },
    {
      method: 'GET',
      pattern: '/skus/:id/reviews/:reviewId/edit',
      api: 'account',
      handler: ({ params }) => {
        const { review } = ownReview(params.id, params.reviewId);
        const { requires_body, questions } = reviewForm(reviewAnswers.get(review.id as number));
        return json(200, { review_form: { requires_body, rating: review.rating, review: review.review, questions } });
      },
    },
    {
      method: 'POST',
      pattern: '/skus/:id/reviews',
      api: 'account',
      handler: async ({ request, params }) => {
        const sku = findSku(params.id);
        const fields = await reviewFields(request, true);
        const review: Json = {
          id: nextReviewId++,
          sku_id: sku.id,
          user_id: REVIEWER_ID,
          review: fields.review ?? null,
          rating: fields.rating,
          created_at: timestamp(core.now()),
          demoted: false,
          votes_count: 0,
          helpful_votes_count: 0,
          voted: false,
          flagged: false,
          helpful: false,
          sentiments: sentimentsOf(fields.answerIds ?? []),
        };
        reviewAnswers.set(review.id as number, fields.answerIds ?? []);
        // Most recent first (document 2, 3.0.2).
        reviewsBySku.get(sku.id)?.unshift(review);
        sku.reviews_count = Number(sku.reviews_count) + 1;
        return json(201, { sku_review: writtenView(review) });
      },
    },
    {
      method: 'PUT',
      pattern: '/skus/:id/reviews/:reviewId',
      api: 'account',
      handler: async ({ request, params }) => {
        const { review } = ownReview(params.id, params.reviewId);
        const fields = await reviewFields(request, false);
        if (fields.rating !== undefined) review.rating = fields.rating;
        if (fields.review !== undefined) review.review = fields.review;
        if (fields.answerIds !== undefined) {
          reviewAnswers.set(review.id as number, fields.answerIds);
          review.sentiments = sentimentsOf(fields.answerIds);
        }
        return json(200, { sku_review: writtenView(review) });
      },
    },
    {
      method: 'DELETE',
      pattern: '/skus/:id/reviews/:reviewId',
      api: 'account',
      handler: ({ params }) => {
        const { sku, list, review } = ownReview(params.id, params.reviewId);
        list.splice(list.indexOf(review), 1);
        reviewAnswers.delete(review.id as number);
        sku.reviews_count = Math.max(0, Number(sku.reviews_count) - 1);
        return new Response(null, { status: 204 });
      },
    },
    get('/products/:id', ({ params }) => {
      const product = products.get(numericId(params.id, 'Product')) ?? notFound('Product', params.id ?? '');
      return json(200, { product, meta: { personalization } });
    }),
    get('/shops/search', ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      return json(200, { shops: shops.filter((s) => s.name.toLowerCase().includes(q)) });
    }),
    get('/shops/:id', ({ params }) => json(200, { shop: findShop(params.id) })),
    get('/shops/:id/reviews', ({ url, params }) => {
      const shop = findShop(params.id);
      const reviews = shopReviews.get(shop.id) ?? [];
      const meta: Json = {};
      if ((url.searchParams.get('include_meta') ?? '').split(',').includes('shop_rating_breakdown')) {
        const negative = reviews.filter((r) => r.negative).length;
        const pct = (n: number) => Math.round((n / reviews.length) * 100);
        meta.shop_rating_breakdown = [
          { impression: 'positive', percentage: pct(reviews.length - negative), count: reviews.length - negative },
          { impression: 'negative', percentage: pct(negative), count: negative },
        ];
      }
      return paginate(url, 'reviews', reviews, meta);
    }),
    get('/shops/:id/locations', ({ url, params }) => {
      const embed = (url.searchParams.get('embed') ?? '').split(',').includes('address');
      const list = (locations.get(findShop(params.id).id) ?? []).map(({ address, ...rest }) => (embed ? { ...rest, address } : rest));
      return json(200, { locations: list });
    }),
    get('/shops/:id/locations/:locationId', ({ url, params }) => {
      const embed = (url.searchParams.get('embed') ?? '').split(',').includes('address');
      const found = locations.get(findShop(params.id).id)?.find((l) => l.id === Number(params.locationId));
      if (!found) return notFound('Location', params.locationId ?? '');
      const { address, ...rest } = found;
      return json(200, { location: embed ? { ...rest, address } : rest });
    }),
    get('/shops/:id/products/search', ({ url, params }) => {
      const shop = findShop(params.id);
      const uid = url.searchParams.get('shop_uid');
      return json(200, { products: [...products.values()].filter((p) => p.shop_id === shop.id && (!uid || p.shop_uid === uid)).slice(0, 25) });
    }),
    get('/locations/find', ({ url }) => {
      const lat = Number(url.searchParams.get('lat'));
      const lng = Number(url.searchParams.get('lng'));
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) fail(400, 'InvalidParameter', 'lat and lng are required');
      const found = [...locations.values()].flat().map(({ address: _, ...l }) => ({
        ...l,
        distance: Math.round(Math.hypot(Number(l.lat) - lat, Number(l.lng) - lng) * 111_000) / 1000,
      }));
      return json(200, { locations: found.sort((a, b) => a.distance - b.distance) });
    }),
    get('/manufacturers', ({ url }) => paginate(url, 'manufacturers', manufacturers)),
    get('/manufacturers/:id', ({ params }) => json(200, { manufacturer: findManufacturer(params.id) })),
    get('/manufacturers/:id/categories', ({ params }) => {
      const m = findManufacturer(params.id);
      const ids = new Set([...skus.values()].filter((s) => s.manufacturer_id === m.id).map((s) => s.category_id));
      return json(200, { categories: [...categories.values()].filter((c) => ids.has(c.id)) });
    }),
    get('/manufacturers/:id/skus', ({ url, params }) => {
      const m = findManufacturer(params.id);
      const orderBy = url.searchParams.get('order_by') ?? 'popularity';
      if (orderBy !== 'price' && orderBy !== 'popularity') fail(400, 'InvalidParameter', 'order_by must be price or popularity');
      const list = [...skus.values()].filter((s) => s.manufacturer_id === m.id);
      return paginate(url, 'skus', sortSkus(list, orderBy, url.searchParams.get('order_dir') ?? 'desc'));
    }),
    get('/search', search),
    get('/autocomplete', ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const hits = [...skus.values()].filter((s) => s.name.toLowerCase().includes(q)).slice(0, 10);
      return json(200, { autocomplete: hits.map((s) => ({ k: s.name.toLowerCase(), i: 3, d: { n: categories.get(s.category_id)?.name, id: s.category_id } })) });
    }),
    get('/flags', () => json(200, { flags: FLAGS })),
    get('/personalization', () => json(200, { personalization })),
    {
      method: 'PUT',
      pattern: '/personalization',
      api: 'catalog',
      handler: async ({ request }) => {
        const body = await readJsonBody(request);
        const addressId = (body.personalization as { location?: { address_id?: unknown } | undefined } | undefined)?.location?.address_id;
        if (!Number.isInteger(addressId)) fail(400, 'InvalidParameter', 'personalization.location.address_id must be an integer');
        personalization.location.address_id = addressId as number;
        return json(200, { personalization });
      },
    },
    {
      method: 'POST',
      pattern: '/skus/:id/reviews/:reviewId/votes',
      api: 'account',
      handler: async ({ request, url, params }) => {
        const review = (reviewsBySku.get(findSku(params.id).id) ?? []).find((r) => r.id === Number(params.reviewId));
        if (!review) return notFound('SkuReview', params.reviewId ?? '');
        const body = await readJsonBody(request);
        const helpful = (body.vote as { helpful?: unknown } | undefined)?.helpful ?? url.searchParams.get('vote') === 'true';
        if (typeof helpful !== 'boolean') fail(400, 'InvalidParameter', 'vote.helpful must be a boolean');
        review.votes_count = Number(review.votes_count) + 1;
        if (helpful) review.helpful_votes_count = Number(review.helpful_votes_count) + 1;
        const vote: Json = { id: nextVoteId++, sku_review_id: review.id, user_id: 1, helpful, created_at: timestamp(core.now()) };
        if ((url.searchParams.get('embed') ?? '').split(',').includes('sku_review')) vote.sku_review = copy(review);
        return json(201, { sku_review_vote: vote });
      },
    },
    {
      method: 'POST',
      pattern: '/skus/:id/reviews/:reviewId/flags',
      api: 'account',
      handler: async ({ request, params }) => {
        const review = (reviewsBySku.get(findSku(params.id).id) ?? []).find((r) => r.id === Number(params.reviewId));
        if (!review) return notFound('SkuReview', params.reviewId ?? '');
        const body = await readJsonBody(request);
        const reason = (body.flag as { reason?: unknown } | undefined)?.reason;
        if (!FLAGS.some((f) => f.reason === reason)) fail(422, 'InvalidFlag', `reason must be one of ${FLAGS.map((f) => f.reason).join(', ')}`);
        const at = timestamp(core.now());
        return json(201, { id: nextVoteId++, flaggable_id: review.id, flaggable_type: 'SkuReview', user_id: 1, reason, created_at: at, updated_at: at });
      },
    },
  ];

  const books = createBooks();
  routes.push(...books.routes);

  const kit = {
    /** Books, book categories, authors and publishers (a fixed seed). */
    books: books.kit,
    /** Adds `count` generated SKUs (with products and reviews) to a leaf category; returns them. */
    addSkus(categoryId: number, count: number): MockSku[] {
      const leaf = categories.get(categoryId);
      if (!leaf || leaf.children_count > 0) throw new Error(`mock.catalog.addSkus: ${categoryId} is not a leaf category`);
      return Array.from({ length: count }, () => copy(addSku(categoryId)));
    },
    /** Adds a leaf category under a family (or the root) and returns it. */
    addCategory({ id, name, parent_id = 2 }: { id: number; name: string; parent_id?: number | undefined }): MockCategory {
      const parent = categories.get(parent_id);
      if (!parent || categories.has(id)) throw new Error(`mock.catalog.addCategory: bad parent ${parent_id} or id ${id} taken`);
      const familyId = parent.id === 1 ? id : parent.family_id;
      const created = category(id, name, parent.id, familyId, [...String(parent.path).split(',').map(Number), id], 0);
      categories.set(id, created);
      parent.children_count++;
      skusByCategory.set(id, []);
      return copy(created);
    },
    /** Ids: the leaf category with 120 SKUs (40) and its first SKU, for tests and the demo. */
    get ids() {
      const first = skusByCategory.get(40)?.[0];
      return { root: 1, family: 2, leaf: 40, sku: first?.id ?? 0, shop: shops[0]?.id ?? 0, manufacturer: 101 };
    },
    categories(): MockCategory[] {
      return [...categories.values()].map(copy);
    },
    skus(categoryId: number): MockSku[] {
      return (skusByCategory.get(categoryId) ?? []).map(copy);
    },
  };

  return { routes, kit, skus };
}

export type MockCatalog = ReturnType<typeof createCatalog>['kit'];
