/**
 * The catalog and account parts of the mock: Link pagination, ETag/304, rate-limit headers and
 * the 403 when the budget is spent, the version rules, the seeded data and the account rules.
 */
import { createMockMarketplace, type MockMarketplace, startMockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const BASE = 'https://api.marketplace.test';
const v3 = (token = 'test-catalog-token', extra: Record<string, string> = {}) => ({
  Accept: 'application/vnd.marketplace+json; version=3.2',
  Authorization: `Bearer ${token}`,
  ...extra,
});
const account = (extra: Record<string, string> = {}) => v3('test-account-token', extra);

let mock: MockMarketplace;
const server = setupServer();
// Loopback requests (the server test below) pass through msw; anything else unhandled is an error.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterAll(() => server.close());
beforeEach(() => {
  mock = createMockMarketplace();
  server.resetHandlers(...mswHandlers(mock));
});
afterEach(() => mock.close());

function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (match) links[match[2] as string] = match[1] as string;
  }
  return links;
}

describe('pagination', () => {
  it('walks the 120 SKUs of the leaf category over 5 pages by the Link header', async () => {
    const seen: number[] = [];
    let url: string | undefined = `${BASE}/categories/${mock.catalog.ids.leaf}/skus?order_by=pricevat&order_dir=asc`;
    let pages = 0;
    while (url && pages < 10) {
      const answer = await fetch(url, { headers: v3() });
      expect(answer.status).toBe(200);
      const body = await answer.json();
      pages++;
      expect(body.meta.pagination).toEqual({ total_results: 120, total_pages: 5, page: pages, per: 25 });
      expect(body.meta.ordered_by).toBe('pricevat');
      seen.push(...body.skus.map((s: { id: number }) => s.id));
      const links = parseLink(answer.headers.get('link'));
      if (pages < 5) expect(new URL(links.last as string).searchParams.get('page')).toBe('5');
      url = links.next;
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(120);
    const prices = mock.catalog.skus(40).sort((a, b) => a.price_min - b.price_min || a.id - b.id).map((s) => s.id);
    expect(seen).toEqual(prices);
  });

  it('keeps the query in the links, honours per, and has no Link on the last page', async () => {
    const first = await fetch(`${BASE}/manufacturers?per=3`, { headers: v3() });
    const links = parseLink(first.headers.get('link'));
    expect(links.next).toBe(`${BASE}/manufacturers?per=3&page=2`);
    expect(links.last).toBe(`${BASE}/manufacturers?per=3&page=3`);
    const last = await fetch(links.last as string, { headers: v3() });
    expect(last.headers.get('link')).toBeNull();
    expect((await last.json()).manufacturers).toHaveLength(2);
    const bad = await fetch(`${BASE}/manufacturers?per=0`, { headers: v3() });
    expect(bad.status).toBe(400);
  });

  it('grows with mock.catalog.addSkus, deterministic from the seed', async () => {
    mock.catalog.addSkus(61, 30);
    const answer = await fetch(`${BASE}/categories/61/skus?per=10`, { headers: v3() });
    expect((await answer.json()).meta.pagination.total_results).toBe(30);
    const twin = createMockMarketplace({ baseUrl: 'https://twin.test' });
    expect(twin.catalog.skus(40)).toEqual(mock.catalog.skus(40));
    const other = createMockMarketplace({ baseUrl: 'https://other.test', seed: 99 });
    expect(other.catalog.skus(40)).not.toEqual(mock.catalog.skus(40));
    twin.close();
    other.close();
  });
});

describe('ETags and rate limits', () => {
  it('answers 304 to a matching If-None-Match, still counting it against the limit', async () => {
    const first = await fetch(`${BASE}/categories/root`, { headers: v3() });
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
    const again = await fetch(`${BASE}/categories/root`, { headers: v3('test-catalog-token', { 'If-None-Match': etag }) });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('98');
    const stale = await fetch(`${BASE}/categories/root`, { headers: v3('test-catalog-token', { 'If-None-Match': 'W/"old"' }) });
    expect(stale.status).toBe(200);
  });

  it('answers 403 { message } with the headers once the per-minute budget is spent, per token', async () => {
    let now = Date.UTC(2026, 3, 1, 12, 0, 0);
    const limited = createMockMarketplace({ baseUrl: 'https://limited.test', clock: () => now, rateLimit: { perMinute: 3 } });
    server.use(...mswHandlers(limited));
    const get = (token = 'test-catalog-token') => fetch('https://limited.test/flags', { headers: v3(token) });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) remaining.push((await get()).headers.get('x-ratelimit-remaining'));
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: expect.any(String) });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 3, 1, 12, 1, 0) / 1000));
    expect((await get('test-account-token')).status).toBe(200); // another token, another budget
    now += 60_000;
    expect((await get()).status).toBe(200);
    limited.close();
  });
});

describe('protocol', () => {
  it('takes any 3.x version, none at all (the latest, also for an Accept without the vendor type), and refuses another major or vendor', async () => {
    const accepts = ['application/vnd.marketplace+json; version=3.0', 'application/vnd.marketplace+json; version=3.1.5', 'application/vnd.marketplace+json', 'application/json', '*/*'];
    for (const accept of accepts) {
      expect((await fetch(`${BASE}/flags`, { headers: { ...v3(), Accept: accept } })).status).toBe(200);
    }
    for (const accept of ['application/vnd.marketplace+json; version=4.0', 'application/vnd.other+json', 'text/html']) {
      expect((await fetch(`${BASE}/flags`, { headers: { ...v3(), Accept: accept } })).status).toBe(406);
    }
  });

  it('answers 401 without a token, and 403 naming the permission for a catalog token on account endpoints', async () => {
    const none = await fetch(`${BASE}/flags`, { headers: { Accept: 'application/vnd.marketplace+json; version=3.2' } });
    expect(none.status).toBe(401);
    const favorites = await fetch(`${BASE}/favorites`, { headers: v3() });
    expect(favorites.status).toBe(403);
    expect(await favorites.json()).toEqual({ errors: [{ code: 'forbidden', messages: ['The access token lacks the favorites permission.'] }] });
    const notifications = await fetch(`${BASE}/notifications`, { headers: v3() });
    expect((await notifications.json()).errors[0].messages[0]).toContain('notifications');
  });

  it('answers 404 RecordNotFound and 422 InvalidSearch', async () => {
    const missing = await fetch(`${BASE}/skus/1`, { headers: v3() });
    expect(missing.status).toBe(404);
    expect((await missing.json()).errors[0].code).toBe('RecordNotFound');
    const short = await fetch(`${BASE}/search?q=a`, { headers: v3() });
    expect(short.status).toBe(422);
    expect((await short.json()).errors[0].code).toBe('InvalidSearch');
  });
});

describe('seeded catalog', () => {
  it('has the category tree root → families → leaves', async () => {
    const root = (await (await fetch(`${BASE}/categories/root`, { headers: v3() })).json()).category;
    expect(root).toMatchObject({ id: 1, parent_id: 0, children_count: 3 });
    const families = (await (await fetch(`${BASE}/categories/1/children`, { headers: v3() })).json()).categories;
    expect(families.map((c: { id: number }) => c.id)).toEqual([2, 3, 4]);
    const leaf = (await (await fetch(`${BASE}/categories/40`, { headers: v3() })).json()).category;
    expect(leaf).toMatchObject({ id: 40, children_count: 0, parent_id: 2, family_id: 2, path: '1,2,40', reviewable: true });
    const parent = (await (await fetch(`${BASE}/categories/40/parent`, { headers: v3() })).json()).category;
    expect(parent.id).toBe(2);
  });

  it('has a SKU with products (personalised meta) and reviews with the rating breakdown', async () => {
    const { sku: skuId } = mock.catalog.ids;
    const sku = (await (await fetch(`${BASE}/skus/${skuId}`, { headers: v3() })).json()).sku;
    expect(sku).toMatchObject({ id: skuId, category_id: 40, shop_count: 5, reviews_count: 7 });
    const offers = await (await fetch(`${BASE}/skus/${skuId}/products`, { headers: v3() })).json();
    expect(offers.products).toHaveLength(5);
    expect(typeof offers.products[0].shop_uid).toBe('string');
    expect(offers.meta.personalization.location).toBeTruthy();
    const product = await (await fetch(`${BASE}/products/${offers.products[0].id}`, { headers: v3() })).json();
    expect(product.meta.personalization).toBeTruthy();

    const reviews = await fetch(`${BASE}/skus/${skuId}/reviews?include_meta=sku_rating_breakdown&per=3`, { headers: v3() });
    const body = await reviews.json();
    expect(body.reviews).toHaveLength(3);
    expect(body.meta.sku_rating_breakdown.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(7);
    expect(parseLink(reviews.headers.get('link')).next).toContain('page=2');
  });

  it('has shops with reviews, a rating breakdown and locations with addresses', async () => {
    const { shop } = mock.catalog.ids;
    const reviews = await (await fetch(`${BASE}/shops/${shop}/reviews?include_meta=shop_rating_breakdown`, { headers: v3() })).json();
    expect(reviews.meta.shop_rating_breakdown.map((r: { impression: string }) => r.impression)).toEqual(['positive', 'negative']);
    const plain = await (await fetch(`${BASE}/shops/${shop}/locations`, { headers: v3() })).json();
    expect(plain.locations[0].address).toBeUndefined();
    const embedded = await (await fetch(`${BASE}/shops/${shop}/locations?embed=address`, { headers: v3() })).json();
    expect(embedded.locations[0].address.city).toBe('Athens');
    const near = await (await fetch(`${BASE}/locations/find?lat=37.975&lng=23.735`, { headers: v3() })).json();
    expect(near.locations[0].distance).toBeLessThanOrEqual(near.locations[1].distance);
  });

  it('searches with meta q, alternatives and strong matches', async () => {
    const body = await (await fetch(`${BASE}/search?q=apple`, { headers: v3() })).json();
    expect(body.meta).toMatchObject({ q: 'apple', alternatives: [], strong_matches: { manufacturer: { name: 'Apple' } } });
    expect(body.categories.length).toBeGreaterThan(0);
    expect(body.categories[0].match_count).toBeGreaterThan(0);
  });
});

describe('account', () => {
  it('creates favorites in lists by the rules of document 3', async () => {
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${BASE}${path}`, { method, headers: account({ 'Content-Type': 'application/json' }), body: JSON.stringify(body) });
    const skuId = mock.catalog.skus(41)[0]?.id;
    const created = await post('/favorites', { favorite: { sku_id: skuId } });
    expect(created.status).toBe(201);
    const favorite = (await created.json()).favorite;
    expect(favorite.favorite_list_id).toBe(-41); // an auto list of the SKU's category
    const moved = await (await post(`/favorites/${favorite.id}`, { favorite: { new_list_name: 'Gifts' } }, 'PUT')).json();
    expect(moved.favorite).toMatchObject({ have_it: null });
    const owned = await (await post(`/favorites/${favorite.id}`, { favorite: { have_it: true, favorite_list_id: 1 } }, 'PUT')).json();
    expect(owned.favorite).toMatchObject({ have_it: true, favorite_list_id: null });
    const ownedList = await (await fetch(`${BASE}/favorites?owned=true`, { headers: account() })).json();
    expect(ownedList.favorites.map((f: { id: number }) => f.id)).toContain(favorite.id);
    expect((await post('/favorite_lists', { favorite_list: { name: 'Gifts' } })).status).toBe(422);
    const removed = await fetch(`${BASE}/favorites/${favorite.id}`, { method: 'DELETE', headers: account() });
    expect(removed.status).toBe(204);
    expect((await fetch(`${BASE}/favorites/${favorite.id}`, { method: 'DELETE', headers: account() })).status).toBe(404);
  });

  it('gives notifications a text and every amount of money in whole cents', async () => {
    const { notifications } = await (await fetch(`${BASE}/notifications`, { headers: account() })).json();
    expect(notifications.length).toBeGreaterThan(0);
    for (const n of notifications) expect(n.event_text).toMatch(/^The price of .+ dropped by 9\.1%, to €\d+\.\d\d$/);
    const sku = mock.catalog.ids.sku;
    const answers = [
      notifications,
      await (await fetch(`${BASE}/skus/${sku}/price_history`, { headers: v3() })).json(),
      await (await fetch(`${BASE}/categories/${mock.catalog.ids.leaf}/skus`, { headers: v3() })).json(),
      Array.from({ length: 20 }, () => mock.orders.create()),
    ];
    const amounts: number[] = [];
    JSON.stringify(answers, (key, value) => {
      if (typeof value === 'number' && /price|cost|total|commission|revenue|fee/.test(key)) amounts.push(value);
      return value;
    });
    expect(amounts.length).toBeGreaterThan(50);
    expect(amounts.filter((v) => !/^-?\d+(\.\d{1,2})?$/.test(String(v)))).toEqual([]);
  });

  it('serves the user, notifications (marked viewed) and logout', async () => {
    const user = await (await fetch(`${BASE}/user`, { headers: account() })).json();
    expect(user.user.username).toBe('test-user');
    const list = await (await fetch(`${BASE}/notifications`, { headers: account() })).json();
    const id = list.notifications[0].id;
    const viewed = await fetch(`${BASE}/notifications/view`, {
      method: 'POST',
      headers: account({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ ids: [id] }),
    });
    expect(viewed.status).toBe(204);
    expect(mock.account.notifications().find((n) => n.id === id)?.is_viewed).toBe(true);
    expect((await fetch(`${BASE}/user/logout`, { method: 'DELETE', headers: account() })).status).toBe(204);
    expect((await fetch(`${BASE}/user`, { headers: account() })).status).toBe(401);
    // Revoked everywhere: review writes and catalog reads with that token too.
    const review = await fetch(`${BASE}/skus/1/reviews`, {
      method: 'POST',
      headers: account({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ review: { rating: 5, review: 'Great' } }),
    });
    expect(review.status).toBe(401);
    expect(review.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await fetch(`${BASE}/categories/40`, { headers: account() })).status).toBe(401);
    mock.account.logIn();
    expect((await fetch(`${BASE}/user`, { headers: account() })).status).toBe(200);
  });

  it('names the favorites permission for the SKU favorite lookup and category favorites', async () => {
    for (const path of ['/skus/1/favorite', '/categories/40/favorites']) {
      const answer = await fetch(`${BASE}${path}`, { headers: v3() });
      expect(answer.status).toBe(403);
      expect(JSON.stringify(await answer.json())).toContain('lacks the favorites permission');
    }
  });
});

describe('over the loopback server', () => {
  it('builds Link URLs on the server origin', async () => {
    const running = await startMockMarketplace({ port: 0 });
    try {
      const answer = await fetch(`${running.url}/categories/40/skus`, { headers: v3() });
      expect(parseLink(answer.headers.get('link')).next?.startsWith(`${running.url}/categories/40/skus?`)).toBe(true);
    } finally {
      await running.close();
    }
  });
});
