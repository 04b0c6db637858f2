/**
 * The catalog API v3 of the Catalog API documentation (and the endpoints seen in recorded answers), over a seeded,
 * deterministic catalog (catalog-data.ts): categories, SKUs, products, shops, manufacturers, search and
 * personalization here; SKU reviews, votes and flags in catalog-reviews.ts. Answers are `{name: {...}}` for one
 * resource and `{names: [...], meta}` for collections; ETags, 304 and rate limits come from the core.
 */
import { createBooks } from './books.js';
import { createCatalogData, type Json, type MockCategory, type MockSku } from './catalog-data.js';
import { createReviewRoutes, FLAGS } from './catalog-reviews.js';
import type { CoreContext } from './context.js';
import { paginate } from './paginate.js';
import type { Route, RouteContext } from './router.js';
import { cents, copy, fail, json, readJsonBody, timestamp } from './wire.js';

export type { MockCategory, MockSku } from './catalog-data.js';

const ORDER_BY_METHODS = { pricevat: 'Price', rank: 'Relevance', rating: 'Rating', popularity: 'Popularity' };

export function createCatalog(core: CoreContext) {
  const data = createCatalogData(core);
  const { categories, skusByCategory, skus, products, productsBySku, manufacturers, shops, shopReviews, locations } = data;
  const { addSku, category, notFound, numericId, findCategory, findSku, findShop, findManufacturer } = data;
  const { reviewRoutes, feedbackRoutes } = createReviewRoutes(core, data);
  const sortedCache = new Map<string, { version: number; list: MockSku[] }>();

  // ---- leaf checks, views, listing helpers ---------------------------------------------

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
    if (cached?.version !== data.version()) {
      cached = { version: data.version(), list: sortSkus(skusByCategory.get(leaf.id) ?? [], orderBy, dir) };
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
    ...reviewRoutes,
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
    ...feedbackRoutes,
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
