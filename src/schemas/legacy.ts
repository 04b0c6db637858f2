/**
 * The deprecated legacy v2 interface (document 3). Every answer is an envelope
 * `{ type, result, error }`; `result` is safe to read only when `error` is null.
 * The spec barely describes the results, so their schemas name the keys it
 * mentions and keep everything else untouched.
 */
import * as z from 'zod/mini';
import { bool, loose, num, scalar, strict, text } from './catalog/base.js';
import { maybe, openEnum, readonlyArray, record } from './common.js';
import { SearchQuery } from './query.js';

/** Known codes of the legacy `error` element; others may come. */
export const LEGACY_ERROR_CODES = ['invalid', 'wrong_auth', 'access_denied', 'not_found', 'bookmark_create'] as const;

/**
 * The legacy `error` element, e.g. `{ code: 'invalid', number: 221, text: 'Invalid Search' }`
 * for a keyphrase shorter than 2 characters; `wrong_auth` (wrong credentials) and
 * `access_denied` (wrong API key) from authenticate; `not_found` and `bookmark_create` from bookmarks.
 */
export const LegacyError = record({
  code: maybe(openEnum(LEGACY_ERROR_CODES)),
  number: num,
  text,
});
export type LegacyError = z.infer<typeof LegacyError>;

/**
 * The envelope with an unchecked `result`: parse with this first, and read
 * `result` with the call's own schema only when `error` is null.
 */
export const LegacyEnvelope = record({
  type: text,
  result: maybe(z.unknown()),
  error: maybe(LegacyError),
});
export type LegacyEnvelope = z.infer<typeof LegacyEnvelope>;

/** A legacy object whose fields the spec does not give: every field is kept. */
export const LegacyObject = loose;
export type LegacyObject = z.infer<typeof LegacyObject>;

const objects = maybe(z.array(loose));

/** `/authenticate` (https only). */
export const LegacyAuthenticateResult = record({
  /** Sent as the `access_token` parameter of every later call; required, as the SDK keeps it. */
  access_token: z.string(),
  access_token_expiry: scalar,
  /** `basic` from the API key alone; `full` (tied to a user) with username and password. */
  access_token_type: maybe(openEnum(['basic', 'full'])),
  /** For full tokens. */
  user: maybe(loose),
});
export type LegacyAuthenticateResult = z.infer<typeof LegacyAuthenticateResult>;

/** `/logout`, `/bookmark/destroy`. */
export const LegacySuccessResult = record({ success: bool });
export type LegacySuccessResult = z.infer<typeof LegacySuccessResult>;

/** `/sku/:sku_id/` and the three `/sku/lookup/...` calls. */
export const LegacySkuResult = record({ sku: maybe(loose) });
export type LegacySkuResult = z.infer<typeof LegacySkuResult>;

/** `/subcategories/:cat_id/` (top-level families without `cat_id`). */
export const LegacyCategoriesResult = record({ categories: objects });
export type LegacyCategoriesResult = z.infer<typeof LegacyCategoriesResult>;

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

/**
 * `/search/`. The spec names a result type, a `correction` and a `proposer`
 * without saying where they sit; the result object is assumed (the envelope's
 * `type` may carry the result type too).
 */
export const LegacySearchResult = record({
  type: maybe(openEnum(LEGACY_SEARCH_TYPES)),
  /** An alternative keyphrase; only for `multiple_results` and `no_results`. */
  correction: text,
  /** Only for `multiple_results`. */
  proposer: maybe(record({ type: maybe(openEnum(['category', 'category_manufacturer', 'category_filter'])) })),
});
export type LegacySearchResult = z.infer<typeof LegacySearchResult>;

export const LegacyPaginator = record({
  total_results: num,
  page: num,
  results_per_page: num,
  total_pages: num,
});
export type LegacyPaginator = z.infer<typeof LegacyPaginator>;

/** `/list/:category_id/`. */
export const LegacyListResult = record({
  selected_filters: maybe(z.unknown()),
  skus: objects,
  manufacturers: objects,
  filter_groups: objects,
  paginator: maybe(LegacyPaginator),
});
export type LegacyListResult = z.infer<typeof LegacyListResult>;

/** `/manufacturer/:manuf_id/`. */
export const LegacyManufacturerResult = record({
  manufacturer: maybe(loose),
  popular_categories: objects,
  popular_skus: objects,
  search_results: maybe(z.unknown()),
});
export type LegacyManufacturerResult = z.infer<typeof LegacyManufacturerResult>;

/** `/shop/:shop_id/`. */
export const LegacyShopResult = record({ shop: maybe(loose) });
export type LegacyShopResult = z.infer<typeof LegacyShopResult>;

/** `/shops/` (alphabetical, optionally from a letter). */
export const LegacyShopsResult = record({ shops: objects });
export type LegacyShopsResult = z.infer<typeof LegacyShopsResult>;

/** `/book/:book_id/`. */
export const LegacyBookResult = record({ book: maybe(loose) });
export type LegacyBookResult = z.infer<typeof LegacyBookResult>;

/** `/books/list/`. */
export const LegacyBooksListResult = record({
  dewey_results: maybe(z.unknown()),
  paginator: maybe(LegacyPaginator),
});
export type LegacyBooksListResult = z.infer<typeof LegacyBooksListResult>;

/** `/books` (index widgets), `/index/` (`search_cloud`, `latest_reviews`): kept as sent. */
export const LegacyIndexResult = record({ search_cloud: maybe(z.unknown()), latest_reviews: maybe(z.unknown()) });
export type LegacyIndexResult = z.infer<typeof LegacyIndexResult>;

/** `/search/sku/`. */
export const LegacySkuSearchResult = record({ skus: objects });
export type LegacySkuSearchResult = z.infer<typeof LegacySkuSearchResult>;

/** `/bookmarklists`. */
export const LegacyBookmarkListsResult = record({ bookmarklists: objects });
export type LegacyBookmarkListsResult = z.infer<typeof LegacyBookmarkListsResult>;

/** `/bookmark/create`: the bookmark's structure is not shown in the spec. */
export const LegacyBookmarkResult = record({ bookmark: maybe(loose) });
export type LegacyBookmarkResult = z.infer<typeof LegacyBookmarkResult>;

// What legacy calls send (strict, like every request).

/** `/authenticate`: the API key alone gives a basic token; with username and password, a full one. */
export const LegacyAuthenticateParams = strict({
  api_key: z.string().check(z.minLength(1, 'must not be empty')),
  username: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  password: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
}).check(
  z.refine((value) => (value.username === undefined) === (value.password === undefined), {
    message: 'username and password go together (a full token needs both)',
    path: ['password'],
  }),
);
export type LegacyAuthenticateParams = z.input<typeof LegacyAuthenticateParams>;

/** `/search/` and `/search/sku/`: `keyphrase` of at least 2 characters (error `invalid` / 221 otherwise). */
export const LegacyKeyphrase = SearchQuery;

const positiveInt = z.int().check(z.positive('must be a positive integer'));

/** `/list/:category_id/`. */
export const LegacyListParams = strict({
  keyphrase: z.optional(SearchQuery),
  /** Several filters are sent joined by underscores (`12_34`). */
  filter_id: z.optional(z.union([positiveInt, readonlyArray(z.array(positiveInt))])),
  manufacturer_id: z.optional(positiveInt),
  page: z.optional(positiveInt),
});
export type LegacyListParams = z.input<typeof LegacyListParams>;

/** `/books/list/`. */
export const LegacyBooksListParams = strict({
  keyphrase: z.optional(SearchQuery),
  /** A Dewey id. */
  id: z.optional(z.union([z.string(), z.number()])),
  page: z.optional(positiveInt),
});
export type LegacyBooksListParams = z.input<typeof LegacyBooksListParams>;

/** `/bookmark/create`, `/bookmark/destroy`. */
export const LegacyBookmarkParams = strict({
  type: z.enum(['sku', 'product', 'book']),
  id: positiveInt,
});
export type LegacyBookmarkParams = z.input<typeof LegacyBookmarkParams>;
