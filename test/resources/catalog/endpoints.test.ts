/**
 * Document 2's endpoints, one by one: wire method and path, query encoding, the version
 * header, and the typed result (unwrapped, an array, the wire object, or a page).
 */
import { type MarketplaceClient, Page } from 'emporio';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, useMswServer } from '../../helpers/server.js';
import { ACCEPT_32, capture, queryOf } from './helpers.js';

const server = useMswServer();
const client = () => makeClient({ maxRetries: 0, rateLimit: false, cache: false });

const category = { id: 40, name: 'Κινητά Τηλέφωνα', children_count: 0, parent_id: 12, layout_mode: 'list', path: '76,12,40' };
const sku = { id: 3443837, name: 'Cream 50ml', category_id: 40, price_min: 14.71, images: { main: 'm.jpg', alternatives: [] } };
const product = { id: 14315533, name: 'IPHONE', sku_id: 3783654, shop_id: 670, shop_uid: '062276', price: 275.77, blp: { shipping_cost: 2, payment_method_cost: 0, final_price: 277.77 } };
const personalization = { location: { address_id: 7, label: 'Home', lat: '37.9', lng: '23.7', type: 'address', country_code: 'GR' }, payment_method: { type: 'spot_cash' } };
const shop = { id: 670, name: 'Shop', review_score: 4.6, payment_methods: { credit_card: true, installments: '12' }, shipping: { free: false, free_from: 60 } };
const location = { id: 3, headquarter: true, pickup_point: false, store: true, phones: ['210'], full_address: 'Athens', format: 'structured', lat: '37.9', lng: '23.7' };
const address = { id: 9, street_number: '1', street: 'Ermou', postcode: '10563', city: 'Athens', region: 'Attica', country: 'GR' };
const manufacturer = { id: 28, name: 'Samsung', image_url: null };
const book = { id: 157828, name: 'Deste', main_author_id: 42560, main_author: 'M.', images: { main: 'b.jpg' } };
const pagination = { total_results: 1, total_pages: 1, page: 1, per: 25 };

interface Case {
  name: string;
  verb?: 'get' | 'post' | 'put';
  route: string;
  answer: unknown;
  call: (c: MarketplaceClient) => Promise<unknown>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  result: (r: unknown) => void;
}

const cases: Case[] = [
  {
    name: 'categories.get → GET /categories/:id, unwrapped',
    route: '/categories/40',
    answer: { category },
    call: (c) => c.catalog.categories.get(40),
    result: (r) => expect(r).toEqual(category),
  },
  {
    name: 'categories.root → GET /categories/root',
    route: '/categories/root',
    answer: { category: { ...category, id: 1, parent_id: 0 } },
    call: (c) => c.catalog.categories.root(),
    result: (r) => expect(r).toMatchObject({ id: 1, parent_id: 0 }),
  },
  {
    name: 'categories.parent → GET /categories/:id/parent',
    route: '/categories/40/parent',
    answer: { category: { ...category, id: 12 } },
    call: (c) => c.catalog.categories.parent(40),
    result: (r) => expect(r).toMatchObject({ id: 12 }),
  },
  {
    name: 'categories.children → GET /categories/:id/children, an array',
    route: '/categories/12/children',
    answer: { categories: [category, { ...category, id: 41 }] },
    call: (c) => c.catalog.categories.children(12),
    result: (r) => expect((r as { id: number }[]).map((x) => x.id)).toEqual([40, 41]),
  },
  {
    name: 'categories.specifications with include=group → the wire object with groups',
    route: '/categories/40/specifications',
    answer: { specifications: [{ id: 1, name: 'RAM', values: [], order: 1, unit: 'GB', group_id: 5 }], groups: [{ id: 5, name: 'Memory', order: 1 }] },
    call: (c) => c.catalog.categories.specifications(40, { include: 'group' }),
    query: { include: 'group' },
    result: (r) => expect(r).toMatchObject({ specifications: [{ group_id: 5 }], groups: [{ id: 5, name: 'Memory' }] }),
  },
  {
    name: 'categories.filterGroups → GET /categories/:id/filter_groups, an array',
    route: '/categories/40/filter_groups',
    answer: { filter_groups: [{ id: 2, name: 'Price', active: true, filter_type: 0 }] },
    call: (c) => c.catalog.categories.filterGroups(40),
    result: (r) => expect(r).toEqual([{ id: 2, name: 'Price', active: true, filter_type: 0 }]),
  },
  {
    name: 'skus.specifications → the wire object with meta.full_description',
    route: '/skus/3443837/specifications',
    answer: { specifications: [{ id: 1, name: 'Type', values: ['24h'] }], meta: { full_description: 'Full text' } },
    call: (c) => c.catalog.skus.specifications(3443837),
    result: (r) => expect(r).toMatchObject({ meta: { full_description: 'Full text' }, specifications: [{ values: ['24h'] }] }),
  },
  {
    name: 'skus.priceHistory → GET /skus/:id/price_history, the history',
    route: '/skus/3443837/price_history',
    answer: { history: { average: [{ date: '2018-01-01', price: 10 }], lowest: [{ date: '2018-01-01', price: 9, shop_name: 'S' }] } },
    call: (c) => c.catalog.skus.priceHistory(3443837),
    result: (r) => expect(r).toMatchObject({ lowest: [{ shop_name: 'S' }] }),
  },
  {
    name: 'skus.favorite → GET /skus/:id/favorite, an array',
    route: '/skus/3443837/favorite',
    answer: { favorites: [{ id: 1, sku_id: 3443837, have_it: false }] },
    call: (c) => c.catalog.skus.favorite(3443837),
    result: (r) => expect(r).toEqual([{ id: 1, sku_id: 3443837, have_it: false }]),
  },
  {
    name: 'products.get → the wire object with meta.personalization',
    route: '/products/14315533',
    answer: { product, meta: { personalization } },
    call: (c) => c.catalog.products.get(14315533),
    result: (r) => expect(r).toEqual({ product, meta: { personalization } }),
  },
  {
    name: 'shops.get → GET /shops/:id',
    route: '/shops/670',
    answer: { shop },
    call: (c) => c.catalog.shops.get(670),
    result: (r) => expect(r).toEqual(shop),
  },
  {
    name: 'shops.locations with embed=address → an array with addresses',
    route: '/shops/670/locations',
    answer: { locations: [{ ...location, address }] },
    call: (c) => c.catalog.shops.locations(670, { embed: 'address' }),
    query: { embed: 'address' },
    result: (r) => expect(r).toEqual([{ ...location, address }]),
  },
  {
    name: 'shops.location → GET /shops/:shop_id/locations/:id',
    route: '/shops/670/locations/3',
    answer: { location: { ...location, format: 'unstructured', address: { ...address, street: null, city: null } } },
    call: (c) => c.catalog.shops.location(670, 3, { embed: ['address'] }),
    query: { embed: 'address' },
    result: (r) => expect(r).toMatchObject({ format: 'unstructured', address: { street: null } }),
  },
  {
    name: 'shops.search → GET /shops/search?q=, an array',
    route: '/shops/search',
    answer: { shops: [shop] },
    call: (c) => c.catalog.shops.search('shop'),
    query: { q: 'shop' },
    result: (r) => expect(r).toEqual([shop]),
  },
  {
    name: 'shops.searchProducts → GET /shops/:shop_id/products/search?shop_uid= (a string, leading zeros kept)',
    route: '/shops/670/products/search',
    answer: { products: [product] },
    call: (c) => c.catalog.shops.searchProducts(670, { shop_uid: '062276' }),
    query: { shop_uid: '062276' },
    result: (r) => expect(r).toEqual([product]),
  },
  {
    name: 'locations.find → GET /locations/find?lat=&lng=, with distance',
    route: '/locations/find',
    answer: { locations: [{ ...location, distance: 1.2 }] },
    call: (c) => c.catalog.locations.find({ lat: '37.9760813', lng: '23.7339751' }),
    query: { lat: '37.9760813', lng: '23.7339751' },
    result: (r) => expect(r).toMatchObject([{ distance: 1.2 }]),
  },
  {
    name: 'manufacturers.get → GET /manufacturers/:id',
    route: '/manufacturers/28',
    answer: { manufacturer },
    call: (c) => c.catalog.manufacturers.get(28),
    result: (r) => expect(r).toEqual(manufacturer),
  },
  {
    name: 'books.get → GET /books/:id',
    route: '/books/157828',
    answer: { book },
    call: (c) => c.catalog.books.get(157828),
    result: (r) => expect(r).toEqual(book),
  },
  {
    name: 'books.details → GET /books/:id/details',
    route: '/books/157828/details',
    answer: { book_details: { isbn: '978-960', pages: 320, pubyear: '2017', description: 'd' } },
    call: (c) => c.catalog.books.details(157828),
    result: (r) => expect(r).toEqual({ isbn: '978-960', pages: 320, pubyear: '2017', description: 'd' }),
  },
  {
    name: 'books.similarByAuthor → GET /books/:id/similar_by_author, an array',
    route: '/books/157828/similar_by_author',
    answer: { books: [book] },
    call: (c) => c.catalog.books.similarByAuthor(157828),
    result: (r) => expect(r).toEqual([book]),
  },
  {
    name: 'authors.get → GET /author/:id/',
    route: '/author/42560/',
    answer: { author: { id: 42560, name: 'M.', bio: null, image: null } },
    call: (c) => c.catalog.authors.get(42560),
    result: (r) => expect(r).toEqual({ id: 42560, name: 'M.', bio: null, image: null }),
  },
  {
    name: 'bookCategories.filters({ q }) → GET /book_categories/filters?q=',
    route: '/book_categories/filters',
    answer: { categories: [{ id: 805, name: 'Γνώση', match_count: 12 }] },
    call: (c) => c.catalog.bookCategories.filters({ q: 'γνώση' }),
    query: { q: 'γνώση' },
    result: (r) => expect(r).toEqual({ categories: [{ id: 805, name: 'Γνώση', match_count: 12 }] }),
  },
  {
    name: 'flags.list → GET /flags, an array',
    route: '/flags',
    answer: { flags: [{ reason: 'spam', description: 'Spam' }, { reason: 'new_reason', description: 'kept' }] },
    call: (c) => c.catalog.flags.list(),
    result: (r) => expect(r).toEqual([{ reason: 'spam', description: 'Spam' }, { reason: 'new_reason', description: 'kept' }]),
  },
  {
    name: 'personalization.get → GET /personalization',
    route: '/personalization',
    answer: { personalization },
    call: (c) => c.catalog.personalization.get(),
    result: (r) => expect(r).toEqual(personalization),
  },
  {
    name: 'personalization.update → PUT /personalization with { personalization: { location: { address_id } } }',
    verb: 'put',
    route: '/personalization',
    answer: { personalization },
    call: (c) => c.catalog.personalization.update({ location: { address_id: 7 } }),
    body: { personalization: { location: { address_id: 7 } } },
    result: (r) => expect(r).toEqual(personalization),
  },
  {
    name: 'categories.get with sparse fieldsets → fields[root]=a,b and fields_except[root]=c',
    route: '/categories/40',
    answer: { category: { id: 40, name: 'x' } },
    call: (c) => c.catalog.categories.get(40, { fields: { root: ['id', 'name'] }, fields_except: { root: ['code'] } }),
    query: { 'fields[root]': 'id,name', 'fields_except[root]': 'code' },
    result: (r) => expect(r).toEqual({ id: 40, name: 'x' }),
  },
];

describe('catalog endpoints (document 2)', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const verb = c.verb ?? 'get';
      const seen = capture(server, verb, `${BASE}${c.route}`, () => HttpResponse.json(c.answer as Record<string, unknown>));
      const result = await c.call(client());
      expect(seen).toHaveLength(1);
      const request = seen[0]!;
      expect(request.method).toBe(verb.toUpperCase());
      expect(request.url.pathname).toBe(c.route);
      expect(queryOf(request.url)).toEqual(c.query ?? {});
      expect(request.body).toEqual(c.body);
      expect(request.headers.get('accept')).toBe(ACCEPT_32);
      c.result(result);
    });
  }
});

describe('query encoding and version header', () => {
  it('categories.skus sends arrays as k[]=…, include_meta as a comma list, and types the meta', async () => {
    const meta = {
      pagination,
      ordered_by: 'pricevat',
      order_by_methods: { pricevat: 'Price', popularity: 'Popularity' },
      available_filters: {
        filters: { '7': 3 },
        manufacturers: { '28': 5 },
        shops: { '670': 1 },
        availabilities: [{ id: 1, label: 'Now', count: 4 }],
        distances: [{ id: 5, label: '5 km', count: 2 }],
      },
      applied_filters: { filters: [1, 2] },
    };
    const seen = capture(server, 'get', `${BASE}/categories/40/skus`, () => HttpResponse.json({ skus: [sku], meta }));
    const page = await client().catalog.categories.skus(40, {
      filter_ids: [1, 2],
      manufacturer_ids: [28],
      shop_ids: [670, 671],
      include_meta: ['available_filters', 'applied_filters'],
      order_by: 'pricevat',
      order_dir: 'asc',
      distance: 5,
      availability: 1,
      q: 'galaxy',
      fields: { root: ['id', 'name'] },
    });
    const search = seen[0]!.url.search;
    expect(search).toContain('filter_ids%5B%5D=1&filter_ids%5B%5D=2');
    expect(queryOf(seen[0]!.url)).toEqual({
      'filter_ids[]': ['1', '2'],
      'manufacturer_ids[]': '28',
      'shop_ids[]': ['670', '671'],
      include_meta: 'available_filters,applied_filters',
      order_by: 'pricevat',
      order_dir: 'asc',
      distance: '5',
      availability: '1',
      q: 'galaxy',
      'fields[root]': 'id,name',
    });
    expect(page).toBeInstanceOf(Page);
    expect(page.items).toEqual([sku]);
    expect(page.meta?.ordered_by).toBe('pricevat');
    expect(page.meta?.order_by_methods).toEqual({ pricevat: 'Price', popularity: 'Popularity' });
    expect(page.meta?.available_filters?.distances?.[0]?.label).toBe('5 km');
    expect(page.meta?.applied_filters).toEqual({ filters: [1, 2] });
    expect(page.pagination).toEqual(pagination);
  });

  it('embed and embed_ids are comma lists', async () => {
    const seen = capture(server, 'get', `${BASE}/manufacturers`, () => HttpResponse.json({ manufacturers: [manufacturer] }));
    await client().catalog.manufacturers.list({ embed: ['a', 'b'], embed_ids: 'c', per: 50 });
    expect(queryOf(seen[0]!.url)).toEqual({ embed: 'a,b', embed_ids: 'c', per: '50' });
  });

  it('sends the custom apiVersion in the Accept header', async () => {
    const seen = capture(server, 'get', `${BASE}/categories/40`, () => HttpResponse.json({ category }));
    await makeClient({ apiVersion: '3.1', cache: false }).catalog.categories.get(40);
    expect(seen[0]!.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.1');
  });

  it('keeps unknown fields and unknown enum values of answers', async () => {
    capture(server, 'get', `${BASE}/categories/40`, () =>
      HttpResponse.json({ category: { id: 40, layout_mode: 'mosaic', new_field: { a: 1 } } }),
    );
    const result = await client().catalog.categories.get(40);
    expect(result.layout_mode).toBe('mosaic');
    expect(result).toMatchObject({ new_field: { a: 1 } });
  });
});

describe('listings with meta', () => {
  it('search: categories with q, alternatives and strong_matches in the page meta', async () => {
    const meta = {
      q: 'iphone',
      alternatives: [{ term: 'iphone 7', important: true, count: 3, drop: [{ token: 'x', dropped: true }] }],
      strong_matches: { category, manufacturer, sku },
      pagination,
    };
    const seen = capture(server, 'get', `${BASE}/search`, () => HttpResponse.json({ categories: [{ ...category, match_count: 7 }], meta }));
    const page = await client().catalog.search('iphone', { per: 10 });
    expect(queryOf(seen[0]!.url)).toEqual({ q: 'iphone', per: '10' });
    expect(page.items[0]?.match_count).toBe(7);
    expect(page.meta?.q).toBe('iphone');
    expect(page.meta?.alternatives?.[0]?.important).toBe(true);
    expect(page.meta?.strong_matches?.sku?.id).toBe(sku.id);
  });

  it('search without matches gives an empty page', async () => {
    capture(server, 'get', `${BASE}/search`, () => HttpResponse.json({ categories: [], meta: { q: 'zzzz', pagination: { ...pagination, total_results: 0, total_pages: 0 } } }));
    const items = [];
    for await (const c of client().catalog.search('zzzz')) items.push(c);
    expect(items).toEqual([]);
  });

  it('shops.reviews with the rating breakdown', async () => {
    const meta = { shop_rating_breakdown: [{ impression: 'positive', percentage: 90, count: 9 }, { impression: 'negative', percentage: 10, count: 1 }], pagination };
    const seen = capture(server, 'get', `${BASE}/shops/670/reviews`, () =>
      HttpResponse.json({ reviews: [{ id: 1, user_id: 2, rating: 5, negative: false, reasons: ['fast'] }], meta }),
    );
    const page = await client().catalog.shops.reviews(670, { include_meta: 'shop_rating_breakdown' });
    expect(queryOf(seen[0]!.url)).toEqual({ include_meta: 'shop_rating_breakdown' });
    expect(page.items[0]?.reasons).toEqual(['fast']);
    expect(page.meta?.shop_rating_breakdown?.[1]).toEqual({ impression: 'negative', percentage: 10, count: 1 });
  });

  it('manufacturers.skus and manufacturers.categories send their order_by values', async () => {
    const skus = capture(server, 'get', `${BASE}/manufacturers/28/skus`, () => HttpResponse.json({ skus: [sku], meta: { pagination, ordered_by: 'price' } }));
    const cats = capture(server, 'get', `${BASE}/manufacturers/28/categories`, () => HttpResponse.json({ categories: [category] }));
    const skuPage = await client().catalog.manufacturers.skus(28, { order_by: 'price', order_dir: 'asc' });
    const catPage = await client().catalog.manufacturers.categories(28, { order_by: 'name' });
    expect(queryOf(skus[0]!.url)).toEqual({ order_by: 'price', order_dir: 'asc' });
    expect(queryOf(cats[0]!.url)).toEqual({ order_by: 'name' });
    expect(skuPage.meta?.ordered_by).toBe('price');
    expect(catPage.items).toEqual([category]);
  });

  it('books.search and authors.books: order_by methods in the meta', async () => {
    const meta = { pagination, ordered_by: 'popularity', order_by_methods: { pricevat: 'p', popularity: 'pop', created_on: 'c' } };
    const seen = capture(server, 'get', `${BASE}/books/search`, () => HttpResponse.json({ books: [book], meta }));
    const authorBooks = capture(server, 'get', `${BASE}/author/42560/books`, () => HttpResponse.json({ books: [book], meta }));
    const page = await client().catalog.books.search('deste', { order_by: 'created_on' });
    const byAuthor = await client().catalog.authors.books(42560, { page: 2 });
    expect(queryOf(seen[0]!.url)).toEqual({ q: 'deste', order_by: 'created_on' });
    expect(queryOf(authorBooks[0]!.url)).toEqual({ page: '2' });
    expect(page.meta?.order_by_methods?.created_on).toBe('c');
    expect(byAuthor.items).toEqual([book]);
  });

  it('categories.list is a paginated list with meta.pagination', async () => {
    const seen = capture(server, 'get', `${BASE}/categories`, () => HttpResponse.json({ categories: [category], meta: { pagination } }));
    const page = await client().catalog.categories.list({ page: 1, per: 50 });
    expect(queryOf(seen[0]!.url)).toEqual({ page: '1', per: '50' });
    expect(page.items).toEqual([category]);
    expect(page.pagination).toEqual(pagination);
    expect(page.hasNextPage()).toBe(false);
  });
});
