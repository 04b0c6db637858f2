import type { Answered, APIPromise } from '../core/api-promise.js';
/**
 * The deprecated legacy v2 interface (the Account API documentation): `{legacyBaseUrl}/json/<call>`, the token as
 * an `access_token` query parameter (the transport adds it and redacts it from errors and logs),
 * and every answer an envelope `{ type, result, error }`.
 */
import type * as z from 'zod/mini';
import { LegacyApiError } from '../core/errors.js';
import { redactUrl } from '../core/logger.js';
import { path, type RequestPath } from '../core/paths.js';
import type { HttpMethod, RequestOptions } from '../core/transport.js';
import type { QueryParams } from '../core/query.js';
import { checkRequest } from '../schemas/common.js';
import {
  LegacyAuthenticateParams,
  type LegacyAuthenticateResult,
  LegacyAuthenticateResult as LegacyAuthenticateResultSchema,
  LegacyBookmarkListsResult,
  LegacyBookmarkParams,
  LegacyBookmarkResult,
  LegacyBookResult,
  LegacyBooksListParams,
  LegacyBooksListResult,
  LegacyCategoriesResult,
  LegacyEnvelope,
  LegacyIndexResult,
  LegacyListParams,
  LegacyListResult,
  LegacyManufacturerResult,
  LegacySearchResult,
  LegacyShopResult,
  LegacyShopsResult,
  LegacySkuResult,
  LegacySkuSearchResult,
  LegacySuccessResult,
} from '../schemas/legacy.js';
import { checkSearchTerm } from './catalog/shared.js';
import { APIResource } from './resource.js';

/** What `authenticate` returned, without the token itself. */
export interface LegacySession {
  /** As the service sent it. */
  access_token_expiry: LegacyAuthenticateResult['access_token_expiry'];
  /** `basic` (API key only) or `full` (tied to a user; allows bookmarks). */
  access_token_type: LegacyAuthenticateResult['access_token_type'];
  /** For full tokens. */
  user: LegacyAuthenticateResult['user'];
}

/** How to find a SKU in `lookupSku`: by a shop's own code, by part number, or by barcode. */
export type LegacySkuLookup = { shop_id: number; sku: string } | { pn: string } | { barcode: string };

interface Call<T> {
  method?: HttpMethod | undefined;
  path: RequestPath | string;
  query?: QueryParams | undefined;
  querySchema?: z.ZodMiniType | undefined;
  form?: Record<string, string | number | undefined> | undefined;
  result: z.ZodMiniType<T>;
  anonymous?: boolean | undefined;
  options?: RequestOptions | undefined;
}

/**
 * The legacy v2 interface.
 * @deprecated The service deprecated v2 in favour of v3 and issues no new keys: use `client.catalog` and `client.account`.
 */
export class LegacyV2 extends APIResource {
  #session: LegacySession | undefined;

  /** The expiry, type and user of the token `authenticate` returned; undefined before it (or after `logout`). */
  get session(): LegacySession | undefined {
    return this.#session && { ...this.#session };
  }

  /**
   * `POST /json/authenticate` (https only; the client refuses an http `legacyBaseUrl` unless
   * it is loopback). The API key alone gives a basic token; with username and password a full
   * one. The token is kept for later calls and never exposed; see `session`. Errors:
   * `wrong_auth` (wrong credentials), `access_denied` (wrong API key).
   * @deprecated v3 uses OAuth 2.0 bearer tokens: pass `token` (or `tokens`) to the client.
   */
  authenticate(credentials: LegacyAuthenticateParams, options?: RequestOptions): APIPromise<LegacySession> {
    return this._transport.call(async () => {
      checkRequest(LegacyAuthenticateParams, credentials, 'credentials');
      // Sent in the body, not the URL, so the key and password stay out of URLs, logs and cache keys.
      const { data, answer } = await this.#send({
        method: 'POST',
        path: '/json/authenticate',
        form: credentials,
        result: LegacyAuthenticateResultSchema,
        anonymous: true,
        options,
      });
      const { access_token, access_token_expiry, access_token_type, user } = data;
      this._transport.setToken('legacyV2', access_token);
      this.#session = { access_token_expiry, access_token_type, user };
      return { data: this.session as LegacySession, answer };
    });
  }

  /**
   * `POST /json/logout`; forgets the kept token.
   * @deprecated Use `client.account.user.logout()`.
   */
  logout(options?: RequestOptions): APIPromise<LegacySuccessResult> {
    return this._transport.call(async () => {
      const sent = await this.#send({ method: 'POST', path: '/json/logout', result: LegacySuccessResult, options });
      this._transport.setToken('legacyV2', undefined);
      this.#session = undefined;
      return sent;
    });
  }

  /**
   * `GET /json/sku/:sku_id/`.
   * @deprecated Use `client.catalog.skus.get(id)`.
   */
  sku(id: number, options?: RequestOptions): APIPromise<LegacySkuResult> {
    return this.#call({ path: path`/json/sku/${id}/`, result: LegacySkuResult, options });
  }

  /**
   * `GET /json/sku/lookup/shop/:shop_id/sku/:sku/`, `/json/sku/lookup/pn/:pn/` or
   * `/json/sku/lookup/barcode/:barcode/`.
   * @deprecated Use `client.catalog.shops.searchProducts(shopId, { shop_uid })` for a shop's code,
   * or `client.catalog.search(q)` for a part number or barcode.
   */
  lookupSku(lookup: LegacySkuLookup, options?: RequestOptions): APIPromise<LegacySkuResult> {
    const where =
      'shop_id' in lookup
        ? path`/json/sku/lookup/shop/${lookup.shop_id}/sku/${lookup.sku}/`
        : 'pn' in lookup
          ? path`/json/sku/lookup/pn/${lookup.pn}/`
          : path`/json/sku/lookup/barcode/${lookup.barcode}/`;
    return this.#call({ path: where, result: LegacySkuResult, options });
  }

  /**
   * `GET /json/subcategories/:cat_id/`; without `catId`, the top-level families.
   * @deprecated Use `client.catalog.categories.children(id)` (and `categories.root()`).
   */
  subcategories(catId?: number, options?: RequestOptions): APIPromise<LegacyCategoriesResult> {
    const where = catId === undefined ? '/json/subcategories/' : path`/json/subcategories/${catId}/`;
    return this.#call({ path: where, result: LegacyCategoriesResult, options });
  }

  /**
   * `GET /json/search/?keyphrase=`: a keyphrase of at least 2 characters, or
   * `RequestValidationError` before sending (the service's error would be `invalid` / 221).
   * @deprecated Use `client.catalog.search(q)`.
   */
  search(keyphrase: string, options?: RequestOptions): APIPromise<LegacySearchResult> {
    return this.#call(() => {
      checkSearchTerm(keyphrase, 'keyphrase');
      return { path: '/json/search/', query: { keyphrase }, result: LegacySearchResult, options };
    });
  }

  /**
   * `GET /json/list/:category_id/` with `keyphrase`, `filter_id` (several are sent joined by
   * underscores), `manufacturer_id`, `page`.
   * @deprecated Use `client.catalog.categories.skus(id, params)`.
   */
  list(categoryId: number, params: LegacyListParams = {}, options?: RequestOptions): APIPromise<LegacyListResult> {
    return this.#call(() => {
      checkRequest(LegacyListParams, params, 'parameters');
      const { filter_id, ...rest } = params;
      const query = { ...rest, filter_id: Array.isArray(filter_id) ? filter_id.join('_') : (filter_id as number | undefined) };
      return { path: path`/json/list/${categoryId}/`, query, result: LegacyListResult, options };
    });
  }

  /**
   * `GET /json/manufacturer/:manuf_id/`.
   * @deprecated Use `client.catalog.manufacturers.get(id)`, `.categories(id)` and `.skus(id)`.
   */
  manufacturer(id: number, options?: RequestOptions): APIPromise<LegacyManufacturerResult> {
    return this.#call({ path: path`/json/manufacturer/${id}/`, result: LegacyManufacturerResult, options });
  }

  /**
   * `GET /json/shop/:shop_id/`.
   * @deprecated Use `client.catalog.shops.get(id)`.
   */
  shop(id: number, options?: RequestOptions): APIPromise<LegacyShopResult> {
    return this.#call({ path: path`/json/shop/${id}/`, result: LegacyShopResult, options });
  }

  /**
   * `GET /json/shops/`, or `/json/shops/:letter/`: the alphabetical shop listing.
   * @deprecated Use `client.catalog.shops.search(q)`.
   */
  shops(letter?: string, options?: RequestOptions): APIPromise<LegacyShopsResult> {
    const where = letter === undefined ? '/json/shops/' : path`/json/shops/${letter}/`;
    return this.#call({ path: where, result: LegacyShopsResult, options });
  }

  /**
   * `GET /json/book/:book_id/`.
   * @deprecated Use `client.catalog.books.get(id)` and `.details(id)`.
   */
  book(id: number, options?: RequestOptions): APIPromise<LegacyBookResult> {
    return this.#call({ path: path`/json/book/${id}/`, result: LegacyBookResult, options });
  }

  /**
   * `GET /json/books/list/` with `keyphrase`, `id` (a Dewey id), `page`.
   * @deprecated Use `client.catalog.books.search(q)` or `client.catalog.bookCategories.books(id)`.
   */
  booksList(params: LegacyBooksListParams = {}, options?: RequestOptions): APIPromise<LegacyBooksListResult> {
    return this.#call({ path: '/json/books/list/', query: params, querySchema: LegacyBooksListParams, result: LegacyBooksListResult, options });
  }

  /**
   * `GET /json/books`: the books index widgets, kept as sent.
   * @deprecated Use `client.catalog.bookCategories.list()`.
   */
  books(options?: RequestOptions): APIPromise<LegacyIndexResult> {
    return this.#call({ path: '/json/books', result: LegacyIndexResult, options });
  }

  /**
   * `GET /json/index/`: `search_cloud` and `latest_reviews`.
   * @deprecated v3 has no equivalent; use `client.catalog.categories.root()` to start browsing.
   */
  index(options?: RequestOptions): APIPromise<LegacyIndexResult> {
    return this.#call({ path: '/json/index/', result: LegacyIndexResult, options });
  }

  /**
   * `GET /json/search/sku/?keyphrase=`: a keyphrase of at least 2 characters.
   * @deprecated Use `client.catalog.search(q)` or `client.catalog.categories.skus(id, { q })`.
   */
  searchSkus(keyphrase: string, options?: RequestOptions): APIPromise<LegacySkuSearchResult> {
    return this.#call(() => {
      checkSearchTerm(keyphrase, 'keyphrase');
      return { path: '/json/search/sku/', query: { keyphrase }, result: LegacySkuSearchResult, options };
    });
  }

  /**
   * `GET /json/bookmarklists` (a full token).
   * @deprecated Use `client.account.favoriteLists.list()`.
   */
  bookmarkLists(options?: RequestOptions): APIPromise<LegacyBookmarkListsResult> {
    return this.#call({ path: '/json/bookmarklists', result: LegacyBookmarkListsResult, options });
  }

  /**
   * `POST /json/bookmark/create` with `type` (sku, product or book) and `id` (a full token).
   * Errors: `not_found`, `bookmark_create`.
   * @deprecated Use `client.account.favorites.create({ sku_id })`.
   */
  createBookmark(bookmark: LegacyBookmarkParams, options?: RequestOptions): APIPromise<LegacyBookmarkResult> {
    return this.#call(() => {
      checkRequest(LegacyBookmarkParams, bookmark, 'bookmark');
      return { method: 'POST', path: '/json/bookmark/create', form: bookmark, result: LegacyBookmarkResult, options };
    });
  }

  /**
   * `POST /json/bookmark/destroy` with `type` and `id`; resolves `{ success: true }`. Error: `not_found`.
   * @deprecated Use `client.account.favorites.delete(id)`.
   */
  destroyBookmark(bookmark: LegacyBookmarkParams, options?: RequestOptions): APIPromise<LegacySuccessResult> {
    return this.#call(() => {
      checkRequest(LegacyBookmarkParams, bookmark, 'bookmark');
      return { method: 'POST', path: '/json/bookmark/destroy', form: bookmark, result: LegacySuccessResult, options };
    });
  }

  /** Every call: send, open the envelope, map its `error` element, check `result`. */
  /** One legacy call; `call` may be a function, which runs inside the call (a bad input rejects it). */
  #call<T>(call: Call<T> | (() => Call<T>)): APIPromise<T> {
    return this._transport.call(() => this.#send(typeof call === 'function' ? call() : call));
  }

  async #send<T>(call: Call<T>): Promise<{ data: T; answer: Answered }> {
    let form: FormData | undefined;
    if (call.form) {
      form = new FormData();
      for (const [name, value] of Object.entries(call.form)) if (value !== undefined) form.append(name, String(value));
    }
    const answer = await this._transport.send({
      api: 'legacyV2',
      method: call.method ?? 'GET',
      path: call.path,
      query: call.query,
      querySchema: call.querySchema,
      form,
      schema: LegacyEnvelope,
      anonymous: call.anonymous,
      options: call.options,
    });
    const target = { method: call.method ?? 'GET', url: redactUrl(answer.url) };
    const envelope = answer.body;
    if (envelope?.error) {
      const { code, number, text } = envelope.error;
      // The service may quote the session's token in its text (an expired one, say).
      const shown = this._transport.redact('legacyV2', text ?? '');
      throw new LegacyApiError({ code: code ?? 'unknown', number: number ?? undefined, text: shown }, target);
    }
    const data = this._transport.accept(call.result, envelope?.result, { api: 'legacyV2', status: answer.status, headers: answer.response().headers, target }, ['result']);
    return { data, answer };
  }
}
