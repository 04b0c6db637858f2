import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FavoritesPage } from '../../src/schemas/account.js';
import {
  AuthorAnswer,
  AutocompleteAnswer,
  BookAnswer,
  BookCategoriesPage,
  BookCategoryAnswer,
  BookDetailsAnswer,
  BooksPage,
  CategoriesPage,
  CategoryAnswer,
  CategorySpecificationsAnswer,
  FILTER_TYPES,
  FilterGroupsPage,
  FlagsPage,
  LocationsPage,
  ManufacturersPage,
  PersonalizationAnswer,
  PriceHistoryAnswer,
  ProductAnswer,
  ProductCardsPage,
  ProductsPage,
  PublisherAnswer,
  ReviewFormAnswer,
  SearchPage,
  ShopAnswer,
  ShopReviewsPage,
  SkuAnswer,
  SkuReviewAnswer,
  SkuReviewFlag,
  SkuReviewsPage,
  SkuReviewVoteAnswer,
  SkuSpecificationsAnswer,
  SkusPage,
} from '../../src/schemas/catalog.js';
import {
  CategoryManufacturersParams,
  CategorySkusParams,
  GetParams,
  LocationsFindParams,
  ReviewCreate,
  ReviewFlag,
  ReviewUpdate,
  ReviewVote,
  ReviewVoteParams,
  SearchQuery,
  SkuReviewsParams,
  SpecificationsParams,
} from '../../src/schemas/query.js';

interface Recording {
  request: { method: string; url: string; params: Record<string, unknown> | null };
  response: { status: number; body_is_json: boolean; body: unknown };
}

const folder = new URL('../fixtures/recorded-catalog/', import.meta.url);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .sort();
const recording = (name: string) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Recording;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The recordings write request keys as `:name`; strip that to get what was sent. */
const unprefix = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(unprefix)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/^:/, ''), unprefix(v)]))
      : value;

/** Which schema reads each recorded answer. */
const schemaFor: Record<string, { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: unknown } }> = {
  'autocomplete.json': AutocompleteAnswer,
  'book_categories.json': BookCategoriesPage,
  'book_categories_books.json': BooksPage,
  'book_categories_filters.json': BookCategoriesPage,
  'book_categories_show.json': BookCategoryAnswer,
  'category_favorites.json': FavoritesPage,
  'category_manufacturers.json': ManufacturersPage,
  'publisher.json': PublisherAnswer,
  'publisher_books.json': BooksPage,
  'sku_review_flag_create.json': SkuReviewFlag,
  'sku_review_vote_create.json': SkuReviewVoteAnswer,
  'sku_review_vote_create_embed_sku_review.json': SkuReviewVoteAnswer,
  'sku_reviews_with_aggregation.json': SkuReviewsPage,
  'sku_reviews_with_rating_breakdown.json': SkuReviewsPage,
  'skus_product_cards.json': ProductCardsPage,
  'skus_products.json': ProductsPage,
  'skus_reviews.json': SkuReviewsPage,
  'skus_reviews_create.json': SkuReviewAnswer,
  'skus_reviews_edit.json': ReviewFormAnswer,
  'skus_reviews_new.json': ReviewFormAnswer,
  'skus_reviews_update.json': SkuReviewAnswer,
  'skus_show.json': SkuAnswer,
  'skus_similar.json': SkusPage,
};

describe('catalog schemas against the recorded answers', () => {
  it('every recording has a schema, except the 204 of a review deletion', () => {
    const withoutSchema = files.filter((name) => !(name in schemaFor));
    expect(withoutSchema).toEqual(['skus_reviews_destroy.json']);
    const destroy = recording('skus_reviews_destroy.json');
    expect([destroy.request.method, destroy.response.status, destroy.response.body]).toEqual(['DELETE', 204, null]);
  });

  it.each(Object.entries(schemaFor))('%s parses with every value intact', (name, schema) => {
    const { body, body_is_json } = recording(name).response;
    expect(body_is_json).toBe(true);
    const result = schema.safeParse(clone(body));
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(result.data).toStrictEqual(body);
  });

  it('types what the recordings carry beyond the spec', () => {
    const cards = ProductCardsPage.parse(recording('skus_product_cards.json').response.body);
    const card = cards.product_cards[0]?.cards?.[0];
    expect(card?.shop?.extra_info?.time_on_platform).toBeTypeOf('string');
    expect(card?.products?.[0]?.shop_uid).toBe('220004685');
    expect(cards.meta?.personalization?.location?.address_id).toBeNull();

    const reviews = SkuReviewsPage.parse(recording('sku_reviews_with_rating_breakdown.json').response.body);
    expect(reviews.meta?.sku_rating_breakdown?.map((entry) => entry.star)).toEqual([5, 4, 3, 2, 1]);
    expect(reviews.reviews[0]?.sentiments?.negative).toContain('GPS');

    const vote = SkuReviewVoteAnswer.parse(recording('sku_review_vote_create_embed_sku_review.json').response.body);
    expect(vote.sku_review_vote?.sku_review?.id).toBe(18689);

    const filters = BookCategoriesPage.parse(recording('book_categories_filters.json').response.body);
    expect(filters.meta?.ancestor).toEqual({ id: 1857, name: 'Φιλοσοφία' });

    const edit = ReviewFormAnswer.parse(recording('skus_reviews_edit.json').response.body);
    const chosen = edit.review_form.questions?.flatMap((q) => q.answers ?? []).filter((a) => a.selected);
    expect(chosen?.map((a) => a.id)).toEqual([561, 3944]);
  });

  it('the recorded requests fit the request schemas', () => {
    const body = (name: string, key: string) => (unprefix(recording(name).request.params) as Record<string, unknown>)[key];
    expect(ReviewCreate.parse(body('skus_reviews_create.json', 'review'))).toEqual({
      rating: 5,
      answer_ids: [561, 3944],
      review: 'Δοκιμαστικό SKU review κείμενο',
    });
    expect(ReviewUpdate.parse(body('skus_reviews_update.json', 'review'))).toEqual({ rating: 4 });
    expect(ReviewVote.parse(body('sku_review_vote_create.json', 'vote'))).toEqual({ helpful: true });
    expect(ReviewVote.parse(body('sku_review_vote_create_embed_sku_review.json', 'vote'))).toEqual({ helpful: false });
    expect(ReviewFlag.parse(body('sku_review_flag_create.json', 'flag'))).toEqual({ reason: 'spam' });

    const query = (name: string) => {
      const { url, params } = recording(name).request;
      return { ...Object.fromEntries(new URL(url).searchParams), ...(unprefix(params) as object) };
    };
    expect(CategoryManufacturersParams.parse(query('category_manufacturers.json'))).toEqual({
      order_by: 'popularity',
      order_dir: 'desc',
      per: 2,
    });
    expect(SkuReviewsParams.parse(query('sku_reviews_with_aggregation.json')).include_meta).toBe('sku_reviews_aggregation');
    expect(SkuReviewsParams.parse(query('sku_reviews_with_rating_breakdown.json')).per).toBe(3);
    // A POST's params are its body; its query is in the URL.
    const voteUrl = new URL(recording('sku_review_vote_create_embed_sku_review.json').request.url);
    expect(ReviewVoteParams.parse(Object.fromEntries(voteUrl.searchParams))).toEqual({ embed: 'sku_review' });
    expect(SearchQuery.parse(query('autocomplete.json').q)).toBe('iph');
  });
});

describe('catalog schemas against spec-shaped answers', () => {
  const category = {
    id: 40,
    name: 'Mobile phones',
    children_count: 0,
    image_url: null,
    parent_id: 12,
    fashion: false,
    layout_mode: 'tiles',
    web_uri: 'https://www.marketplace.example/c/40',
    code: 'mobile',
    path: '1,12,40',
    show_specifications: true,
    manufacturer_title: 'Manufacturer',
    family_id: 1,
    show_manufacturers_filter: true,
    adult: false,
    show_spec_summary: true,
    reviewable: true,
    comparable: true,
    onclick_behaviour: 'skus',
    unit_price_label: '',
  };
  const sku = {
    id: 3443837,
    ean: '',
    pn: '',
    name: 'Cream',
    display_name: 'Brand Cream',
    category_id: 835,
    manufacturer_id: 7444,
    first_product_shop_info: '670|PC1|pc1',
    click_url: null,
    price_max: 24.27,
    price_min: 14.71,
    reviewscore: 4.5,
    shop_count: 164,
    reviews_count: 30,
    plain_spec_summary: 'Type: cream',
    future: false,
    virtual: false,
    images: { main: 'https://img.example/m.jpg', alternatives: [] },
    web_uri: 'https://www.marketplace.example/s/3443837',
    favorited: true,
    comparable: true,
    reviewable: true,
    name_source: 'display_name',
    sizes: null,
    ecommerce_enabled: true,
    description: 'Truncated…',
  };
  const product = {
    id: 1,
    name: 'Offer',
    sku_id: 3443837,
    shop_id: 670,
    category_id: 835,
    availability: 'In stock',
    click_url: 'https://click.example/1',
    shop_uid: '062276',
    expenses: null,
    web_uri: 'https://www.marketplace.example/products/1',
    sizes: [],
    price: 14.71,
    immediate_pickup: true,
    blp: { shipping_cost: 2, payment_method_cost: 0, final_price: 16.71 },
  };
  const personalization = {
    location: { address_id: 25522, label: 'Home', lat: '38.04', lng: '23.76', type: 'address', country_code: 'GR' },
    payment_method: { type: 'spot_cash' },
  };
  const pagination = { total_results: 30, total_pages: 2, page: 1, per: 25 };
  const shop = {
    id: 670,
    name: 'PC1',
    link: 'http://www.pc1.example',
    phone: '2100000000',
    image_url: 'https://img.example/logo.png',
    thumbshot_url: 'https://img.example/shot.png',
    web_uri: 'https://www.marketplace.example/m/670',
    reviews_count: 445,
    latest_reviews_count: 79,
    review_score: 3.8,
    payment_methods: { credit_card: true, paypal: false, bank: true, spot_cash: true, installments: 'up to 12' },
    shipping: { free: true, free_from: 120, free_from_info: null, min_price: '3', shipping_cost_enabled: true },
    extra_info: { time_on_platform: '3+ years', orders_per_week: '100+' },
    top_positive_reasons: ['Fast delivery'],
  };

  const samples: [string, { safeParse: (v: unknown) => { success: boolean; data?: unknown } }, unknown][] = [
    ['GET /categories/:id', CategoryAnswer, { category }],
    ['GET /categories', CategoriesPage, { categories: [category, { id: 1, name: 'Root', parent_id: 0 }], meta: { pagination } }],
    [
      'GET /categories/:id/specifications?include=group',
      CategorySpecificationsAnswer,
      {
        specifications: [{ id: 1, name: 'Screen', values: [], order: 1, unit: '"', group_id: 7 }],
        groups: [{ id: 7, name: 'Display', order: 1 }],
      },
    ],
    [
      'GET /categories/:id/skus?include_meta=available_filters,applied_filters',
      SkusPage,
      {
        skus: [sku],
        meta: {
          ordered_by: 'pricevat',
          order_by_methods: { pricevat: 'Price', rank: 'Relevance', rating: 'Rating', popularity: 'Popularity' },
          available_filters: {
            filters: { '101': 12, '102': 3 },
            manufacturers: { '28': 40 },
            shops: { '670': 5 },
            availabilities: [{ id: 1, label: 'Immediate pickup', count: 4 }],
            distances: [{ id: 5, label: 'Up to 5 km', count: 2 }],
          },
          applied_filters: { filter_ids: [101] },
          pagination,
        },
      },
    ],
    [
      'GET /categories/:category_id/filter_groups',
      FilterGroupsPage,
      {
        filter_groups: [
          {
            id: 3,
            name: 'Price',
            active: true,
            category_id: 40,
            created_at: '2017-01-01T00:00:00+02:00',
            updated_at: '2017-01-02T00:00:00+02:00',
            hint: '',
            combined: false,
            filter_type: 0,
          },
        ],
      },
    ],
    [
      'GET /skus/:id/specifications',
      SkuSpecificationsAnswer,
      {
        specifications: [{ id: 1, name: 'Screen', values: ['5.1"'], order: 1, unit: '' }],
        meta: { full_description: 'The whole text.' },
      },
    ],
    [
      'GET /skus/:id/price_history',
      PriceHistoryAnswer,
      {
        history: {
          average: [{ date: '2018-01-01', price: 10.5 }],
          lowest: [{ date: '2018-01-01', price: 9.9, shop_name: 'PC1' }],
        },
      },
    ],
    ['GET /products/:id', ProductAnswer, { product, meta: { personalization } }],
    ['GET /shops/:shop_id/products/search', ProductsPage, { products: [product] }],
    ['GET /personalization', PersonalizationAnswer, { personalization }],
    [
      'GET /search',
      SearchPage,
      {
        categories: [{ ...category, match_count: 12 }],
        meta: {
          q: 'iphone 7',
          alternatives: [
            { term: 'iphone', important: false, count: 120, drop: [{ token: '7', dropped: true }] },
            { term: 'iphone 7 plus', important: true },
          ],
          strong_matches: { category, manufacturer: { id: 28, name: 'Apple', image_url: null }, sku },
          pagination,
        },
      },
    ],
    ['GET /search (no match)', SearchPage, { categories: [], meta: { q: 'zzzz', alternatives: [], strong_matches: {} } }],
    ['GET /manufacturers', ManufacturersPage, { manufacturers: [{ id: 28, name: 'Apple', image_url: null }], meta: { pagination } }],
    ['GET /shops/:id', ShopAnswer, { shop }],
    [
      'GET /shops/:id/reviews?include_meta=shop_rating_breakdown',
      ShopReviewsPage,
      {
        reviews: [
          {
            id: 9,
            user_id: 3,
            review: 'Fine',
            rating: 4.5,
            shop_reply: null,
            created_at: '2018-01-01T00:00:00+02:00',
            negative: false,
            reasons: ['Fast delivery'],
          },
        ],
        meta: {
          shop_rating_breakdown: [
            { impression: 'positive', percentage: 90, count: 400 },
            { impression: 'negative', percentage: 10, count: 45 },
          ],
          pagination,
        },
      },
    ],
    [
      'GET /shops/:shop_id/locations?embed=address',
      LocationsPage,
      {
        locations: [
          {
            id: 1,
            headquarter: true,
            pickup_point: true,
            store: true,
            phones: ['2100000000'],
            full_address: 'Street 1, Athens 10563',
            format: 'structured',
            lat: '37.97',
            lng: '23.73',
            info: '',
            address: { id: 5, street_number: '1', street: 'Street', postcode: '10563', city: 'Athens', region: 'Attica', country: 'GR' },
          },
          {
            id: 2,
            format: 'unstructured',
            full_address: 'Somewhere',
            address: { id: null, street_number: null, street: null, postcode: null, city: null, region: null, country: null },
          },
        ],
      },
    ],
    ['GET /locations/find', LocationsPage, { locations: [{ id: 1, lat: '37.97', lng: '23.73', distance: 1.2 }] }],
    [
      'GET /books/:id',
      BookAnswer,
      {
        book: {
          id: 242327,
          name: 'A book',
          main_author_id: 385,
          main_author: 'An Author',
          images: { main: 'https://img.example/b.jpg' },
          price_min: 6.82,
          price_max: 15.79,
          shop_count: 13,
          reviewscore: 5,
          reviews_count: 2,
          first_product_shop_info: null,
        },
      },
    ],
    [
      'GET /books/:id/details',
      BookDetailsAnswer,
      {
        book_details: {
          series: null,
          cover: 'Paperback',
          pubyear: 2017,
          pages: '320',
          isbn: '9789604968000',
          shape: '14x21',
          volume: null,
          ages: '12+',
          description: 'About the book',
        },
      },
    ],
    ['GET /author/:id/', AuthorAnswer, { author: { id: 385, name: 'An Author', bio: null, image: null } }],
    [
      'GET /books/search',
      BooksPage,
      { books: [], meta: { ordered_by: 'popularity', order_by_methods: { pricevat: 'Price', popularity: 'Popularity', created_on: 'Date' } } },
    ],
    ['GET /book_categories/filters?q=', BookCategoriesPage, { categories: [{ id: 805, name: 'Knowledge', match_count: 3 }] }],
    [
      'GET /flags',
      FlagsPage,
      {
        flags: [
          { reason: 'bad_language', description: 'Offensive language' },
          { reason: 'spam', description: 'Advertising' },
        ],
      },
    ],
  ];

  it.each(samples)('%s parses with every value intact', (_endpoint, schema, body) => {
    const result = schema.safeParse(clone(body));
    expect(result.success, JSON.stringify(result)).toBe(true);
    expect(result.data).toStrictEqual(body);
  });

  it('accepts null or absent for every field but the id, unknown fields and unknown enum values', () => {
    expect(SkuAnswer.parse({ sku: { id: 1 } })).toEqual({ sku: { id: 1 } });
    const nulls = Object.fromEntries(Object.keys(sku).map((key) => [key, null]));
    expect(SkuAnswer.parse({ sku: { ...nulls, id: 1 } }).sku.images).toBeNull();
    const newer = { category: { id: 2, layout_mode: 'mosaic', brand_new_field: { nested: [1] } } };
    expect(CategoryAnswer.parse(clone(newer))).toStrictEqual(newer);
    expect(CategoriesPage.parse({ categories: [] })).toEqual({ categories: [] });
    expect(CategoriesPage.parse({ categories: [], meta: null })).toEqual({ categories: [], meta: null });
  });

  it('exports the meaning of filter_type', () => {
    expect(FILTER_TYPES).toEqual({
      0: 'price',
      1: 'keyword',
      2: 'spec',
      3: 'synced_spec',
      4: 'custom_range',
      5: 'sizes',
    });
  });
});

describe('broken answer shapes fail', () => {
  const cases: [string, { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, unknown, PropertyKey[]][] = [
    ['root key missing', CategoryAnswer, { id: 1, name: 'x' }, ['category']],
    ['a string where the resource must be', SkuAnswer, { sku: 'gone' }, ['sku']],
    ['the list is not an array', CategoriesPage, { categories: { id: 1 } }, ['categories']],
    ['an item without its id', SkusPage, { skus: [{ name: 'x' }] }, ['skus', 0, 'id']],
    ['a string where images must be an object', SkuAnswer, { sku: { id: 1, images: 'x.jpg' } }, ['sku', 'images']],
    ['meta that is not an object', ProductAnswer, { product: { id: 1 }, meta: 'x' }, ['meta']],
    ['the flag answer without its id', SkuReviewFlag, { reason: 'spam' }, ['id']],
    ['counts that are not a map', SkusPage, { skus: [], meta: { available_filters: { shops: [1, 2] } } }, ['meta', 'available_filters', 'shops']],
    ['a review form question list that is a string', ReviewFormAnswer, { review_form: { questions: 'x' } }, ['review_form', 'questions']],
  ];

  it.each(cases)('%s', (_case, schema, body, path) => {
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });
});

describe('catalog request parameters', () => {
  const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.error?.issues.map(({ path, message }) => ({ path, message })) ?? [];

  it('q needs at least 2 characters after trimming', () => {
    expect(SearchQuery.safeParse('ip').success).toBe(true);
    for (const q of ['', 'i', '  i  ', '   ']) expect(SearchQuery.safeParse(q).success, q).toBe(false);
    expect(issuesOf(CategorySkusParams.safeParse({ q: 'a' }))).toEqual([
      { path: ['q'], message: 'must have at least 2 characters (spaces at the ends do not count)' },
    ]);
  });

  it('takes the shared query shapes', () => {
    const params: CategorySkusParams = {
      embed: ['shop', 'sku'],
      embed_ids: 'images',
      include_meta: ['available_filters', 'applied_filters'],
      fields: { root: ['id', 'name'], shop: ['name'] },
      fields_except: { root: ['description'] },
      filter_ids: [1, 2],
      manufacturer_ids: [28],
      shop_ids: [670],
      distance: 5,
      availability: 1,
      order_by: 'pricevat',
      order_dir: 'asc',
      page: 2,
      per: 50,
      q: 'iphone',
    };
    expect(CategorySkusParams.parse(params)).toEqual(params);
    expect(SpecificationsParams.parse({ include: 'group' })).toEqual({ include: 'group' });
    expect(GetParams.parse({})).toEqual({});
  });

  it('refuses a typo in a parameter name, at compile time and at run time', () => {
    // @ts-expect-error: the parameter is filter_ids
    const typo: CategorySkusParams = { filter_id: [1] };
    expect(issuesOf(CategorySkusParams.safeParse(typo))).toEqual([{ path: [], message: 'unknown field: filter_id' }]);
  });

  it('refuses bad values with their paths', () => {
    const bad = {
      filter_ids: [1, 'two'],
      page: 0,
      per: 2.5,
      order_dir: 'up',
      include_meta: 'everything',
      embed: 'shop,sku',
      fields: { root: 'id' },
    };
    const paths = CategorySkusParams.safeParse(bad).error?.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        ['filter_ids', 1],
        ['page'],
        ['per'],
        ['order_dir'],
        ['include_meta'],
        ['embed'],
        ['fields', 'root'],
      ]),
    );
  });

  it('locations.find needs lat and lng as decimal strings', () => {
    expect(LocationsFindParams.parse({ lat: '37.9760813', lng: '23.7339751' })).toEqual({ lat: '37.9760813', lng: '23.7339751' });
    const result = LocationsFindParams.safeParse({ lat: 37.97, lng: '200' });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['lat'], ['lng']]);
    expect(LocationsFindParams.safeParse({ lat: '37.9' }).error?.issues.map((issue) => issue.path)).toEqual([['lng']]);
  });

  it('review bodies are strict', () => {
    expect(issuesOf(ReviewCreate.safeParse({ rating: 6 }))).toEqual([{ path: ['rating'], message: 'must be 1 to 5' }]);
    expect(ReviewCreate.safeParse({ review: 'no rating' }).error?.issues.map((issue) => issue.path)).toEqual([['rating']]);
    expect(ReviewCreate.safeParse({ rating: 5, answer_ids: [561, 'x'] }).error?.issues[0]?.path).toEqual(['answer_ids', 1]);
    expect(issuesOf(ReviewUpdate.safeParse({ ratin: 4 }))).toEqual([{ path: [], message: 'unknown field: ratin' }]);
    expect(ReviewVote.safeParse({ helpful: 'yes' }).error?.issues[0]?.path).toEqual(['helpful']);
    expect(ReviewVote.safeParse({}).error?.issues[0]?.path).toEqual(['helpful']);
    expect(ReviewFlag.parse({ reason: 'a_reason_added_later' })).toEqual({ reason: 'a_reason_added_later' });
    expect(ReviewFlag.safeParse({ reason: '' }).error?.issues[0]?.path).toEqual(['reason']);
  });
});
