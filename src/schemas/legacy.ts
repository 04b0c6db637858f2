/**
 * The deprecated legacy v2 interface (the Account API documentation). Every answer is an envelope
 * `{ type, result, error }`; `result` is safe to read only when `error` is null.
 * The documentation barely describes the results, so their schemas name the keys it
 * mentions and keep everything else untouched.
 */
import * as z from 'zod/mini';
import { bool, loose, num, scalar, strict, text } from './catalog/base.js';
import { answer, type Infer, lazy, maybe, openEnum, readonlyArray, record, type Schema } from './common.js';
import { PositiveInt, SearchQuery } from './query.js';

/** Known codes of the legacy `error` element; others may come. */
export const LEGACY_ERROR_CODES = ['invalid', 'wrong_auth', 'access_denied', 'not_found', 'bookmark_create'] as const;

const legacyErrorShape = () => ({
  code: maybe(openEnum(LEGACY_ERROR_CODES)),
  number: num,
  text,
});
/**
 * The legacy `error` element, e.g. `{ code: 'invalid', number: 221, text: 'Invalid Search' }`
 * for a keyphrase shorter than 2 characters; `wrong_auth` (wrong credentials) and
 * `access_denied` (wrong API key) from authenticate; `not_found` and `bookmark_create` from bookmarks.
 */
export interface LegacyError extends Infer<typeof legacyErrorShape> {}
export const LegacyError: Schema<LegacyError> = /* @__PURE__ */ answer(legacyErrorShape);

const legacyEnvelopeShape = () => ({
  type: text,
  result: maybe(z.unknown()),
  error: maybe(LegacyError),
});
/**
 * The envelope with an unchecked `result`: parse with this first, and read
 * `result` with the call's own schema only when `error` is null.
 */
export interface LegacyEnvelope extends Infer<typeof legacyEnvelopeShape> {}
export const LegacyEnvelope: Schema<LegacyEnvelope> = /* @__PURE__ */ answer(legacyEnvelopeShape);

/** A legacy object whose fields the documentation does not give: every field is kept. */
export const LegacyObject = loose;
export type LegacyObject = z.infer<typeof LegacyObject>;

const objects = maybe(z.array(loose));

const legacyAuthenticateResultShape = () => ({
  /** Sent as the `access_token` parameter of every later call; required, as the SDK keeps it. */
  access_token: z.string(),
  access_token_expiry: scalar,
  /** `basic` from the API key alone; `full` (tied to a user) with username and password. */
  access_token_type: maybe(openEnum(['basic', 'full'])),
  /** For full tokens. */
  user: maybe(loose),
});
/** `/authenticate` (https only). */
export interface LegacyAuthenticateResult extends Infer<typeof legacyAuthenticateResultShape> {}
export const LegacyAuthenticateResult: Schema<LegacyAuthenticateResult> = /* @__PURE__ */ answer(legacyAuthenticateResultShape);

const legacySuccessResultShape = () => ({ success: bool });
/** `/logout`, `/bookmark/destroy`. */
export interface LegacySuccessResult extends Infer<typeof legacySuccessResultShape> {}
export const LegacySuccessResult: Schema<LegacySuccessResult> = /* @__PURE__ */ answer(legacySuccessResultShape);

const legacySkuResultShape = () => ({ sku: maybe(loose) });
/** `/sku/:sku_id/` and the three `/sku/lookup/...` calls. */
export interface LegacySkuResult extends Infer<typeof legacySkuResultShape> {}
export const LegacySkuResult: Schema<LegacySkuResult> = /* @__PURE__ */ answer(legacySkuResultShape);

const legacyCategoriesResultShape = () => ({ categories: objects });
/** `/subcategories/:cat_id/` (top-level families without `cat_id`). */
export interface LegacyCategoriesResult extends Infer<typeof legacyCategoriesResultShape> {}
export const LegacyCategoriesResult: Schema<LegacyCategoriesResult> = /* @__PURE__ */ answer(legacyCategoriesResultShape);

/** Known result types of `/search/`; others may come. */
export const LEGACY_SEARCH_TYPES = [
  'multiple_results',
  'category_match',
  'manufacturer',
  'sku',
  'book_search',
  'single_category_results',
  'no_results',
] as const;

const legacySearchResultShape = () => ({
  type: maybe(openEnum(LEGACY_SEARCH_TYPES)),
  /** An alternative keyphrase; only for `multiple_results` and `no_results`. */
  correction: text,
  /** Only for `multiple_results`. */
  proposer: maybe(record({ type: maybe(openEnum(['category', 'category_manufacturer', 'category_filter'])) })),
});
/**
 * `/search/`. The documentation names a result type, a `correction` and a `proposer`
 * without saying where they sit; the result object is assumed (the envelope's
 * `type` may carry the result type too).
 */
export interface LegacySearchResult extends Infer<typeof legacySearchResultShape> {}
export const LegacySearchResult: Schema<LegacySearchResult> = /* @__PURE__ */ answer(legacySearchResultShape);

const legacyPaginatorShape = () => ({
  total_results: num,
  page: num,
  results_per_page: num,
  total_pages: num,
});
export interface LegacyPaginator extends Infer<typeof legacyPaginatorShape> {}
export const LegacyPaginator: Schema<LegacyPaginator> = /* @__PURE__ */ answer(legacyPaginatorShape);

const legacyListResultShape = () => ({
  selected_filters: maybe(z.unknown()),
  skus: objects,
  manufacturers: objects,
  filter_groups: objects,
  paginator: maybe(LegacyPaginator),
});
/** `/list/:category_id/`. */
export interface LegacyListResult extends Infer<typeof legacyListResultShape> {}
export const LegacyListResult: Schema<LegacyListResult> = /* @__PURE__ */ answer(legacyListResultShape);

const legacyManufacturerResultShape = () => ({
  manufacturer: maybe(loose),
  popular_categories: objects,
  popular_skus: objects,
  search_results: maybe(z.unknown()),
});
/** `/manufacturer/:manuf_id/`. */
export interface LegacyManufacturerResult extends Infer<typeof legacyManufacturerResultShape> {}
export const LegacyManufacturerResult: Schema<LegacyManufacturerResult> = /* @__PURE__ */ answer(legacyManufacturerResultShape);

const legacyShopResultShape = () => ({ shop: maybe(loose) });
/** `/shop/:shop_id/`. */
export interface LegacyShopResult extends Infer<typeof legacyShopResultShape> {}
export const LegacyShopResult: Schema<LegacyShopResult> = /* @__PURE__ */ answer(legacyShopResultShape);

const legacyShopsResultShape = () => ({ shops: objects });
/** `/shops/` (alphabetical, optionally from a letter). */
export interface LegacyShopsResult extends Infer<typeof legacyShopsResultShape> {}
export const LegacyShopsResult: Schema<LegacyShopsResult> = /* @__PURE__ */ answer(legacyShopsResultShape);

const legacyBookResultShape = () => ({ book: maybe(loose) });
/** `/book/:book_id/`. */
export interface LegacyBookResult extends Infer<typeof legacyBookResultShape> {}
export const LegacyBookResult: Schema<LegacyBookResult> = /* @__PURE__ */ answer(legacyBookResultShape);

const legacyBooksListResultShape = () => ({
  dewey_results: maybe(z.unknown()),
  paginator: maybe(LegacyPaginator),
});
/** `/books/list/`. */
export interface LegacyBooksListResult extends Infer<typeof legacyBooksListResultShape> {}
export const LegacyBooksListResult: Schema<LegacyBooksListResult> = /* @__PURE__ */ answer(legacyBooksListResultShape);

const legacyIndexResultShape = () => ({ search_cloud: maybe(z.unknown()), latest_reviews: maybe(z.unknown()) });
/** `/books` (index widgets), `/index/` (`search_cloud`, `latest_reviews`): kept as sent. */
export interface LegacyIndexResult extends Infer<typeof legacyIndexResultShape> {}
export const LegacyIndexResult: Schema<LegacyIndexResult> = /* @__PURE__ */ answer(legacyIndexResultShape);

const legacySkuSearchResultShape = () => ({ skus: objects });
/** `/search/sku/`. */
export interface LegacySkuSearchResult extends Infer<typeof legacySkuSearchResultShape> {}
export const LegacySkuSearchResult: Schema<LegacySkuSearchResult> = /* @__PURE__ */ answer(legacySkuSearchResultShape);

const legacyBookmarkListsResultShape = () => ({ bookmarklists: objects });
/** `/bookmarklists`. */
export interface LegacyBookmarkListsResult extends Infer<typeof legacyBookmarkListsResultShape> {}
export const LegacyBookmarkListsResult: Schema<LegacyBookmarkListsResult> = /* @__PURE__ */ answer(legacyBookmarkListsResultShape);

const legacyBookmarkResultShape = () => ({ bookmark: maybe(loose) });
/** `/bookmark/create`: the bookmark's structure is not shown in the documentation. */
export interface LegacyBookmarkResult extends Infer<typeof legacyBookmarkResultShape> {}
export const LegacyBookmarkResult: Schema<LegacyBookmarkResult> = /* @__PURE__ */ answer(legacyBookmarkResultShape);

// What legacy calls send (strict, like every request).

/** `/authenticate`: the API key alone gives a basic token; with username and password, a full one. */
export const LegacyAuthenticateParams = /* @__PURE__ */ lazy(() =>
  strict({
    api_key: z.string().check(z.minLength(1, 'must not be empty')),
    username: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
    password: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  }).check(
    z.refine((value) => (value.username === undefined) === (value.password === undefined), {
      message: 'username and password go together (a full token needs both)',
      path: ['password'],
    }),
  ),
);
export type LegacyAuthenticateParams = z.input<typeof LegacyAuthenticateParams>;

/** `/search/` and `/search/sku/`: `keyphrase` of at least 2 characters (error `invalid` / 221 otherwise). */
export const LegacyKeyphrase = SearchQuery;


/** `/list/:category_id/`. */
export const LegacyListParams = /* @__PURE__ */ lazy(() =>
  strict({
    keyphrase: z.optional(SearchQuery),
    /** Several filters are sent joined by underscores (`12_34`). */
    filter_id: z.optional(z.union([PositiveInt, readonlyArray(z.array(PositiveInt))])),
    manufacturer_id: z.optional(PositiveInt),
    page: z.optional(PositiveInt),
  }),
);
export type LegacyListParams = z.input<typeof LegacyListParams>;

/** `/books/list/`. */
export const LegacyBooksListParams = /* @__PURE__ */ lazy(() =>
  strict({
    keyphrase: z.optional(SearchQuery),
    /** A Dewey id. */
    id: z.optional(z.union([z.string(), z.number()])),
    page: z.optional(PositiveInt),
  }),
);
export type LegacyBooksListParams = z.input<typeof LegacyBooksListParams>;

/** `/bookmark/create`, `/bookmark/destroy`. */
export const LegacyBookmarkParams = /* @__PURE__ */ lazy(() =>
  strict({
    type: z.enum(['sku', 'product', 'book']),
    id: PositiveInt,
  }),
);
export type LegacyBookmarkParams = z.input<typeof LegacyBookmarkParams>;
