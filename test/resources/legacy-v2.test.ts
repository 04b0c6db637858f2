/** The deprecated legacy v2 interface: `/json/<call>`, access_token in the query, the `{ type, result, error }` envelope. */
import { AuthenticationError, LegacyApiError, RequestValidationError, ResponseValidationError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeClient, useMswServer } from '../helpers/server.js';
import { capture, queryOf, rejection } from './catalog/helpers.js';

const server = useMswServer();
const LEGACY = 'https://legacy.marketplace.test';
const LEGACY_TOKEN = 'legacy-SECRET-token-91x';
const API_KEY = 'key-SECRET-123';
const PASSWORD = 'pw-SECRET-456';

const client = (extra: Parameters<typeof makeClient>[0] = {}) =>
  makeClient({ legacyBaseUrl: LEGACY, maxRetries: 0, rateLimit: false, cache: false, ...extra });
const ok = (result: unknown, type = 'ok') => HttpResponse.json({ type, result, error: null });
const failed = (code: string, number: number, text: string) => HttpResponse.json({ type: 'error', result: null, error: { code, number, text } });

function countRequests(): { count: number } {
  const counter = { count: 0 };
  server.use(
    http.all(`${LEGACY}/*`, () => {
      counter.count++;
      return HttpResponse.json({}, { status: 500 });
    }),
  );
  return counter;
}

/** An authenticated client: authenticate answered with a basic token. */
async function authenticated() {
  capture(server, 'post', `${LEGACY}/json/authenticate`, () =>
    ok({ access_token: LEGACY_TOKEN, access_token_expiry: '2026-12-01T00:00:00Z', access_token_type: 'basic' }),
  );
  const c = client();
  await c.legacyV2.authenticate({ api_key: API_KEY });
  return c;
}

describe('authenticate', () => {
  it('sends the key in the body (not the URL), keeps the token, exposes expiry and type only', async () => {
    const seen = capture(server, 'post', `${LEGACY}/json/authenticate`, () =>
      ok({ access_token: LEGACY_TOKEN, access_token_expiry: 1767225600, access_token_type: 'full', user: { id: 1, username: 'me' } }),
    );
    const c = client();
    const session = await c.legacyV2.authenticate({ api_key: API_KEY, username: 'me', password: PASSWORD });
    expect(seen[0]!.form).toEqual({ api_key: API_KEY, username: 'me', password: PASSWORD });
    expect(seen[0]!.url.search).toBe('');
    expect(seen[0]!.headers.get('authorization')).toBeNull();
    expect(session).toEqual({ access_token_expiry: 1767225600, access_token_type: 'full', user: { id: 1, username: 'me' } });
    expect(c.legacyV2.session).toEqual(session);
    expect(JSON.stringify(c.legacyV2.session)).not.toContain(LEGACY_TOKEN);

    const sku = capture(server, 'get', `${LEGACY}/json/sku/3443837/`, () => ok({ sku: { id: 3443837, name: 'Cream' } }));
    expect(await c.legacyV2.sku(3443837)).toEqual({ sku: { id: 3443837, name: 'Cream' } });
    expect(sku[0]!.url.searchParams.get('access_token')).toBe(LEGACY_TOKEN);
    expect(sku[0]!.headers.get('authorization')).toBeNull();
    expect(sku[0]!.headers.get('accept')).toBe('application/json');
  });

  it('wrong_auth and access_denied are LegacyApiErrors that show no credentials', async () => {
    capture(server, 'post', `${LEGACY}/json/authenticate`, (s) =>
      s.form?.username ? failed('wrong_auth', 2, 'Wrong credentials') : failed('access_denied', 1, 'Access denied'),
    );
    const wrongAuth = await rejection(client().legacyV2.authenticate({ api_key: API_KEY, username: 'me', password: PASSWORD }));
    const denied = await rejection(client().legacyV2.authenticate({ api_key: API_KEY }));
    expect(wrongAuth).toBeInstanceOf(LegacyApiError);
    expect(wrongAuth).toMatchObject({ code: 'wrong_auth', number: 2, text: 'Wrong credentials' });
    expect(denied).toMatchObject({ code: 'access_denied', number: 1 });
    for (const error of [wrongAuth, denied]) {
      const shown = `${(error as Error).message} ${JSON.stringify(error)} ${(error as LegacyApiError).url}`;
      expect(shown).not.toContain(API_KEY);
      expect(shown).not.toContain(PASSWORD);
    }
  });

  it('username without password is refused before sending', async () => {
    const sent = countRequests();
    expect(await rejection(client().legacyV2.authenticate({ api_key: API_KEY, username: 'me' }))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it('a call before authenticate (and without tokens.legacyV2) is refused before sending', async () => {
    const sent = countRequests();
    expect(await rejection(client().legacyV2.index())).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it('tokens.legacyV2 works without authenticate', async () => {
    const seen = capture(server, 'get', `${LEGACY}/json/index/`, () => ok({ search_cloud: [], latest_reviews: [] }));
    await client({ tokens: { legacyV2: LEGACY_TOKEN } }).legacyV2.index();
    expect(seen[0]!.url.searchParams.get('access_token')).toBe(LEGACY_TOKEN);
  });

  it('logout forgets the token', async () => {
    const c = await authenticated();
    const seen = capture(server, 'post', `${LEGACY}/json/logout`, () => ok({ success: true }));
    expect(await c.legacyV2.logout()).toEqual({ success: true });
    expect(seen[0]!.url.searchParams.get('access_token')).toBe(LEGACY_TOKEN);
    expect(c.legacyV2.session).toBeUndefined();
    expect(await rejection(c.legacyV2.index())).toBeInstanceOf(RequestValidationError);
  });
});

describe('search', () => {
  it('a keyphrase shorter than 2 characters is refused before sending', async () => {
    const c = await authenticated();
    const sent = countRequests();
    const error = await rejection(c.legacyV2.search('a'));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['keyphrase']);
    expect(await rejection(c.legacyV2.searchSkus('b'))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it("the service's error element invalid / 221 is a LegacyApiError; the token is redacted from it", async () => {
    const c = await authenticated();
    capture(server, 'get', `${LEGACY}/json/search/`, () => failed('invalid', 221, 'Invalid Search'));
    const error = await rejection(c.legacyV2.search('ab'));
    expect(error).toBeInstanceOf(LegacyApiError);
    expect(error).toMatchObject({ code: 'invalid', number: 221, text: 'Invalid Search' });
    expect((error as LegacyApiError).url).toContain('access_token=%5Bredacted%5D');
    expect(`${(error as Error).message} ${(error as LegacyApiError).url}`).not.toContain(LEGACY_TOKEN);
  });

  it('an HTTP error carrying the envelope keeps its status class, with the error element as code and message', async () => {
    const c = await authenticated();
    capture(server, 'get', `${LEGACY}/json/search/`, () =>
      HttpResponse.json({ type: 'error', result: null, error: { code: 'access_denied', number: 2, text: 'Access denied' } }, { status: 401 }),
    );
    const error = await rejection(c.legacyV2.search('ab'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'access_denied', errors: [{ code: 'access_denied', messages: ['Access denied'] }] });
    expect((error as Error).message).toContain('Access denied');
  });

  it("a LegacyApiError's text never quotes the session token", async () => {
    const c = await authenticated();
    capture(server, 'get', `${LEGACY}/json/search/`, () => failed('access_denied', 2, `token ${LEGACY_TOKEN} expired`));
    const error = (await rejection(c.legacyV2.search('ab'))) as LegacyApiError;
    expect(error).toBeInstanceOf(LegacyApiError);
    expect(error.text).toBe('token [redacted] expired');
    expect(`${error.message} ${String(error)} ${JSON.stringify(error)}`).not.toContain(LEGACY_TOKEN);
  });

  it('a token with URL-special characters is redacted in its encoded forms too', async () => {
    const token = 'ab+c/d=e tok&x';
    capture(server, 'post', `${LEGACY}/json/authenticate`, () =>
      ok({ access_token: token, access_token_expiry: '2026-12-01T00:00:00Z', access_token_type: 'basic' }),
    );
    const c = client();
    await c.legacyV2.authenticate({ api_key: API_KEY });
    // The service echoes the request URL, where the token is percent-encoded.
    capture(server, 'get', `${LEGACY}/json/sku/1/`, (seen) => failed('invalid', 1, `bad request ${seen.url.href}`));
    const error = (await rejection(c.legacyV2.sku(1))) as LegacyApiError;
    expect(error).toBeInstanceOf(LegacyApiError);
    const shown = `${error.message} ${error.text} ${error.url}`;
    for (const form of [token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2)]) {
      expect(shown).not.toContain(form);
    }
  });

  it('resolves the result of a successful search', async () => {
    const c = await authenticated();
    const seen = capture(server, 'get', `${LEGACY}/json/search/`, () =>
      ok({ type: 'multiple_results', correction: 'iphone', proposer: { type: 'category' } }),
    );
    const result = await c.legacyV2.search('ipone');
    expect(seen[0]!.url.searchParams.get('keyphrase')).toBe('ipone');
    expect(result).toEqual({ type: 'multiple_results', correction: 'iphone', proposer: { type: 'category' } });
  });

  it('a result that is missing without an error is a ResponseValidationError', async () => {
    const c = await authenticated();
    capture(server, 'get', `${LEGACY}/json/search/sku/`, () => HttpResponse.json({ type: 'x', result: null, error: null }));
    expect(await rejection(c.legacyV2.searchSkus('tv'))).toBeInstanceOf(ResponseValidationError);
  });
});

describe('every call of the table', () => {
  it('list joins filter ids with underscores', async () => {
    const c = await authenticated();
    const seen = capture(server, 'get', `${LEGACY}/json/list/40/`, () =>
      ok({ skus: [{ id: 1 }], paginator: { total_results: 1, page: 2, results_per_page: 20, total_pages: 2 } }),
    );
    const result = await c.legacyV2.list(40, { filter_id: [12, 34], manufacturer_id: 5, page: 2, keyphrase: 'tv' });
    const { access_token: _token, ...query } = queryOf(seen[0]!.url);
    expect(query).toEqual({ filter_id: '12_34', manufacturer_id: '5', page: '2', keyphrase: 'tv' });
    expect(result.paginator?.total_pages).toBe(2);
  });

  const reads: [string, string, (c: Awaited<ReturnType<typeof authenticated>>) => Promise<unknown>, unknown, Record<string, string>?][] = [
    ['lookupSku by shop code', '/json/sku/lookup/shop/670/sku/062276/', (c) => c.legacyV2.lookupSku({ shop_id: 670, sku: '062276' }), { sku: { id: 1 } }],
    ['lookupSku by part number', '/json/sku/lookup/pn/SM-G920F/', (c) => c.legacyV2.lookupSku({ pn: 'SM-G920F' }), { sku: { id: 2 } }],
    ['lookupSku by barcode', '/json/sku/lookup/barcode/5202888271014/', (c) => c.legacyV2.lookupSku({ barcode: '5202888271014' }), { sku: { id: 3 } }],
    ['subcategories()', '/json/subcategories/', (c) => c.legacyV2.subcategories(), { categories: [{ id: 1 }] }],
    ['subcategories(id)', '/json/subcategories/12/', (c) => c.legacyV2.subcategories(12), { categories: [{ id: 40 }] }],
    ['manufacturer', '/json/manufacturer/28/', (c) => c.legacyV2.manufacturer(28), { manufacturer: { id: 28 }, popular_categories: [], popular_skus: [] }],
    ['shop', '/json/shop/670/', (c) => c.legacyV2.shop(670), { shop: { id: 670 } }],
    ['shops()', '/json/shops/', (c) => c.legacyV2.shops(), { shops: [{ id: 670 }] }],
    ['shops(letter)', '/json/shops/a/', (c) => c.legacyV2.shops('a'), { shops: [] }],
    ['book', '/json/book/157828/', (c) => c.legacyV2.book(157828), { book: { id: 157828 } }],
    ['booksList', '/json/books/list/', (c) => c.legacyV2.booksList({ keyphrase: 'deste', id: '800', page: 1 }), { dewey_results: [], paginator: { page: 1 } }, { keyphrase: 'deste', id: '800', page: '1' }],
    ['books', '/json/books', (c) => c.legacyV2.books(), { widgets: [] }],
    ['index', '/json/index/', (c) => c.legacyV2.index(), { search_cloud: ['tv'], latest_reviews: [] }],
    ['searchSkus', '/json/search/sku/', (c) => c.legacyV2.searchSkus('tv'), { skus: [{ id: 1 }] }, { keyphrase: 'tv' }],
    ['bookmarkLists', '/json/bookmarklists', (c) => c.legacyV2.bookmarkLists(), { bookmarklists: [{ id: 1 }] }],
  ];
  for (const [name, route, call, result, query] of reads) {
    it(`${name} → GET ${route}`, async () => {
      const c = await authenticated();
      const seen = capture(server, 'get', `${LEGACY}${route}`, () => ok(result));
      expect(await call(c)).toEqual(result);
      expect(seen[0]!.method).toBe('GET');
      const { access_token, ...rest } = queryOf(seen[0]!.url);
      expect(access_token).toBe(LEGACY_TOKEN);
      expect(rest).toEqual(query ?? {});
    });
  }

  it('createBookmark and destroyBookmark → POST with type and id; not_found is a LegacyApiError', async () => {
    const c = await authenticated();
    const created = capture(server, 'post', `${LEGACY}/json/bookmark/create`, () => ok({ bookmark: { id: 9, type: 'sku' } }));
    const destroyed = capture(server, 'post', `${LEGACY}/json/bookmark/destroy`, (s) =>
      s.form?.id === '1' ? ok({ success: true }) : failed('not_found', 404, 'Bookmark not found'),
    );
    expect(await c.legacyV2.createBookmark({ type: 'sku', id: 3443837 })).toEqual({ bookmark: { id: 9, type: 'sku' } });
    expect(created[0]!.form).toEqual({ type: 'sku', id: '3443837' });
    expect(await c.legacyV2.destroyBookmark({ type: 'sku', id: 1 })).toEqual({ success: true });
    expect(await rejection(c.legacyV2.destroyBookmark({ type: 'book', id: 2 }))).toMatchObject({ code: 'not_found' });
    expect(destroyed).toHaveLength(2);
    // @ts-expect-error 'shop' is not a bookmark type
    expect(await rejection(c.legacyV2.createBookmark({ type: 'shop', id: 1 }))).toBeInstanceOf(RequestValidationError);
  });
});
