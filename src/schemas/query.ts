/**
 * What catalog and account calls send: query parameters and request bodies.
 * Strict, unlike answers: an unknown key is refused (by the types, and at run
 * time by `strictObject` for callers without types), and values are checked
 * before anything is sent. Types are the schemas' input types.
 */
import * as z from 'zod/mini';
import { strict } from './catalog/base.js';
import { lazy, readonlyArray } from './common.js';
import { FLAG_REASONS } from './catalog/books.js';

const NonEmpty = /* @__PURE__ */ lazy(() =>
  z.string().check(z.minLength(1, 'must not be empty')),
);
export const PositiveInt = /* @__PURE__ */ lazy(() =>
  z.int().check(z.positive('must be a positive integer')),
);
const Ids = /* @__PURE__ */ lazy(() =>
  readonlyArray(z.array(PositiveInt)),
);
/** A resource or field name in a comma list: no commas or spaces. */
const Name = /* @__PURE__ */ lazy(() =>
  z.string().check(z.regex(/^[^,\s]+$/, 'must be a name without commas or spaces')),
);

/** A string typed with its known values, accepting others: for names the service may extend. */
function known<const T extends readonly string[]>(_values: T) {
  type Known = T[number] | (string & {});
  return NonEmpty as unknown as z.ZodMiniType<Known, Known>;
}

/** One name or several (sent as a comma list). */
function oneOrMany<T extends z.ZodMiniType<string>>(name: T) {
  return z.optional(z.union([name, readonlyArray(z.array(name))]));
}

/** `q`: at least 2 characters after trimming (the service answers 422 InvalidSearch otherwise). */
export const SearchQuery = /* @__PURE__ */ lazy(() =>
  z
    .string()
    // Characters, not UTF-16 units: '😀' is one character.
    .check(z.refine((q) => [...q.trim()].length >= 2, 'must have at least 2 characters (spaces at the ends do not count)')),
);

/** Sparse fieldset: `{ root: ['id', 'name'], shop: ['name'] }` is sent as `fields[root]=id,name&fields[shop]=name`. */
export type Fieldset = { root?: readonly string[] | undefined; [association: string]: readonly string[] | undefined };
// An empty list would send `fields[root]=` (keep no fields?): refused rather than guessed.
export const Fieldset = /* @__PURE__ */ lazy(() =>
  z.record(z.string(), z.optional(readonlyArray(z.array(Name).check(z.minLength(1, 'must list at least one field'))))) as z.ZodMiniType<
    Fieldset,
    Fieldset
  >,
);

/** Ascending or descending. */
export const OrderDir = /* @__PURE__ */ lazy(() =>
  z.enum(['asc', 'desc']),
);
export type OrderDir = z.infer<typeof OrderDir>;

/** Query parameters every API v3 call takes (the Catalog API documentation's shared behaviours). */
const shared = () => ({
  /** Nest full linked resources, e.g. `'address'` or `['shop', 'sku']`. */
  embed: oneOrMany(Name),
  /** Nest id arrays of linked resources. */
  embed_ids: oneOrMany(Name),
  /** Add top-level arrays of linked resources, and their ids in the items. */
  include: oneOrMany(Name),
  /** Extra `meta` sections. */
  include_meta: oneOrMany(Name),
  /** Keep only these fields (`root` for the main resource, or an association's name). */
  fields: z.optional(Fieldset),
  /** Remove these fields; applied after `fields`. */
  fields_except: z.optional(Fieldset),
});

const paging = () => ({
  /** 1-based; default the first page. */
  page: z.optional(PositiveInt),
  /** Page size; default 25. */
  per: z.optional(PositiveInt),
});

/** Parameters of a single-resource read: the shared ones. */
export const GetParams = /* @__PURE__ */ lazy(() =>
  strict(shared()),
);
export type GetParams = z.input<typeof GetParams>;

/** Parameters of a plain listing: the shared ones, `page` and `per`. */
export const ListParams = /* @__PURE__ */ lazy(() =>
  strict({ ...shared(), ...paging() }),
);
export type ListParams = z.input<typeof ListParams>;

/** `GET /categories/:id/specifications`, `GET /skus/:id/specifications`. */
export const SpecificationsParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    /** `'group'` adds the answer's `groups` and each specification's `group_id`. */
    include: oneOrMany(z.literal('group')),
  }),
);
export type SpecificationsParams = z.input<typeof SpecificationsParams>;

/** `GET /categories/:category_id/skus`. */
export const CategorySkusParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    /** The set differs per category: read it from `meta.order_by_methods`. */
    order_by: z.optional(known(['pricevat', 'rank', 'rating', 'popularity'])),
    order_dir: z.optional(OrderDir),
    include_meta: oneOrMany(z.enum(['available_filters', 'applied_filters'])),
    /** Sent as `filter_ids[]=1&filter_ids[]=2`. */
    filter_ids: z.optional(Ids),
    manufacturer_ids: z.optional(Ids),
    shop_ids: z.optional(Ids),
    /** Kilometres: an id from `meta.available_filters.distances`. */
    distance: z.optional(PositiveInt),
    /** An id from `meta.available_filters.availabilities`. */
    availability: z.optional(z.int()),
    /** Keyword. */
    q: z.optional(SearchQuery),
  }),
);
export type CategorySkusParams = z.input<typeof CategorySkusParams>;

/** `GET /categories/:id/manufacturers` (parameters as recorded; the documentation does not show them). */
export const CategoryManufacturersParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    order_by: z.optional(known(['popularity', 'name'])),
    order_dir: z.optional(OrderDir),
  }),
);
export type CategoryManufacturersParams = z.input<typeof CategoryManufacturersParams>;

/** `GET /manufacturers/:id/categories`: default `popularity`, `desc`. */
export const ManufacturerCategoriesParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    order_by: z.optional(z.enum(['name', 'popularity'])),
    order_dir: z.optional(OrderDir),
  }),
);
export type ManufacturerCategoriesParams = z.input<typeof ManufacturerCategoriesParams>;

/** `GET /manufacturers/:id/skus`: default `popularity`, `desc`. */
export const ManufacturerSkusParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    order_by: z.optional(z.enum(['price', 'popularity'])),
    order_dir: z.optional(OrderDir),
  }),
);
export type ManufacturerSkusParams = z.input<typeof ManufacturerSkusParams>;

/** `GET /search` (`q` is the method's first argument). */
export const SearchParams = /* @__PURE__ */ lazy(() =>
  ListParams,
);
export type SearchParams = ListParams;

/** A whole search query: `q` and the list parameters (`GET /search`, `GET /shops/search`). */
export const SearchRequest = /* @__PURE__ */ lazy(() =>
  strict({ ...shared(), ...paging(), q: SearchQuery }),
);

/** `GET /shops/search`. */
export const ShopsSearchParams = /* @__PURE__ */ lazy(() =>
  SearchRequest,
);
export type ShopsSearchParams = z.input<typeof ShopsSearchParams>;

/** `GET /shops/:shop_id/products/search`. */
export const ShopProductSearchParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    /** The shop's own product identifier: a string (real values have leading zeros). */
    shop_uid: NonEmpty,
  }),
);
export type ShopProductSearchParams = z.input<typeof ShopProductSearchParams>;

/** `GET /shops/:id/reviews`. */
export const ShopReviewsParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    include_meta: oneOrMany(z.literal('shop_rating_breakdown')),
  }),
);
export type ShopReviewsParams = z.input<typeof ShopReviewsParams>;

/** `GET /shops/:shop_id/locations` and `/locations/:id`. */
export const LocationsParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    /** `'address'` nests each location's address. */
    embed: oneOrMany(z.literal('address')),
  }),
);
export type LocationsParams = z.input<typeof LocationsParams>;

const decimal = /^-?\d{1,3}(\.\d+)?$/;
const coordinate = (limit: number) =>
  z
    .string()
    .check(
      z.refine(
        (value) => decimal.test(value) && Math.abs(Number(value)) <= limit,
        `must be a decimal number between -${limit} and ${limit}, as a string`,
      ),
    );

/** `GET /locations/find`: locations near a point, with `distance`. */
export const LocationsFindParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    embed: oneOrMany(z.literal('address')),
    /** Latitude as a decimal string, e.g. `'37.9760813'`. */
    lat: coordinate(90),
    /** Longitude as a decimal string, e.g. `'23.7339751'`. */
    lng: coordinate(180),
  }),
);
export type LocationsFindParams = z.input<typeof LocationsFindParams>;

const booksSearchFields = () => ({
  ...shared(),
  ...paging(),
  order_by: z.optional(known(['pricevat', 'popularity', 'created_on'])),
  order_dir: z.optional(OrderDir),
});

/** `GET /books/search` (`q` is the method's first argument). */
export const BooksSearchParams = /* @__PURE__ */ lazy(() =>
  strict(booksSearchFields()),
);
export type BooksSearchParams = z.input<typeof BooksSearchParams>;

/** The whole query of `GET /books/search`. */
export const BooksSearchRequest = /* @__PURE__ */ lazy(() =>
  strict({ ...booksSearchFields(), q: SearchQuery }),
);

/** `GET /book_categories/filters?q=`. */
export const BookCategoryFiltersParams = /* @__PURE__ */ lazy(() =>
  strict({ ...shared(), ...paging(), q: SearchQuery }),
);
export type BookCategoryFiltersParams = z.input<typeof BookCategoryFiltersParams>;

/** `GET /skus/:id/reviews` (as recorded; the documentation does not show them). */
export const SkuReviewsParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    include_meta: oneOrMany(z.enum(['sku_reviews_aggregation', 'sku_rating_breakdown'])),
    /** Review ordering (API 3.1.3); its values are not documented. */
    order: z.optional(Name),
  }),
);
export type SkuReviewsParams = z.input<typeof SkuReviewsParams>;

/** `POST /skus/:sku_id/reviews/:id/votes`: `'sku_review'` embeds the voted review in the answer. */
export const ReviewVoteParams = /* @__PURE__ */ lazy(() =>
  strict({ embed: oneOrMany(z.literal('sku_review')) }),
);
export type ReviewVoteParams = z.input<typeof ReviewVoteParams>;

/** `GET /favorites`. */
export const FavoritesParams = /* @__PURE__ */ lazy(() =>
  strict({
    ...shared(),
    ...paging(),
    /** `true`: only owned favorites (`have_it` true). */
    owned: z.optional(z.boolean()),
    /** Default: newest first. */
    order_dir: z.optional(OrderDir),
  }),
);
export type FavoritesParams = z.input<typeof FavoritesParams>;

// Request bodies. Each is the object inside the wire's root key, named in its TSDoc.

/** `POST /favorites`, sent as `{ favorite: ... }`. Without a list, the favorite goes to its category's auto list. */
export const FavoriteCreate = /* @__PURE__ */ lazy(() =>
  strict({
    sku_id: PositiveInt,
    /** An existing list (auto lists have negative ids). */
    favorite_list_id: z.optional(z.int()),
    /** Creates a custom list of that name if missing, and puts the favorite in it. */
    new_list_name: z.optional(NonEmpty),
  }),
);
export type FavoriteCreate = z.input<typeof FavoriteCreate>;

/**
 * `PUT /favorites/:id`, sent as `{ favorite: ... }`. `have_it: true` wins over
 * `favorite_list_id` (an owned favorite is in no list); `new_list_name` sets `have_it` to null.
 */
export const FavoriteUpdate = /* @__PURE__ */ lazy(() =>
  strict({
    have_it: z.optional(z.boolean()),
    favorite_list_id: z.optional(z.int()),
    new_list_name: z.optional(NonEmpty),
  }),
);
export type FavoriteUpdate = z.input<typeof FavoriteUpdate>;

/** `POST /favorite_lists`, sent as `{ favorite_list: ... }`. A name already used by a custom list is refused by the service. */
export const FavoriteListCreate = /* @__PURE__ */ lazy(() =>
  strict({ name: NonEmpty }),
);
export type FavoriteListCreate = z.input<typeof FavoriteListCreate>;

/** Every field optional: the body of an update, any subset of the create body's fields. */
function optionalFields<S extends Record<string, z.ZodMiniType>>(shape: S): { [K in keyof S]: z.ZodMiniOptional<S[K]> } {
  const out: Record<string, z.ZodMiniType> = {};
  for (const key in shape) out[key] = z.optional(shape[key] as z.ZodMiniType);
  return out as { [K in keyof S]: z.ZodMiniOptional<S[K]> };
}

const addressFields = () => ({
  label: NonEmpty,
  first_name: NonEmpty,
  last_name: NonEmpty,
  street_name: NonEmpty,
  street_number: NonEmpty,
  city: NonEmpty,
  zip: NonEmpty,
  /** A region id from the address form's `regions` (1 to 57). */
  region_id: z.int().check(z.gte(1, 'must be a region id from 1 to 57'), z.lte(57, 'must be a region id from 1 to 57')),
  phone: z.optional(z.string()),
  mobile: z.optional(z.string()),
});

/** `POST /user/addresses`: every field but `phone` and `mobile` is required. */
export const AddressCreate = /* @__PURE__ */ lazy(() =>
  strict(addressFields()),
);
export type AddressCreate = z.input<typeof AddressCreate>;

/** `PUT /user/addresses/:id`: any subset of the address fields. */
export const AddressUpdate = /* @__PURE__ */ lazy(() =>
  strict(optionalFields(addressFields())),
);
export type AddressUpdate = z.input<typeof AddressUpdate>;

const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `PATCH /user`. */
export const UserUpdate = /* @__PURE__ */ lazy(() =>
  strict({
    sex: z.optional(z.enum(['male', 'female'])),
    birthyear: z.optional(z.int().check(z.gte(1900, 'must be a year'), z.lte(2100, 'must be a year'))),
    /** A file name from `GET /user/avatars`. */
    avatar_preset: z.optional(NonEmpty),
    /** The image as base64 text, without the `data:image/...;base64,` preamble. */
    avatar: z.optional(
      z
        .string()
        .check(
          z.refine((value) => !value.startsWith('data:'), 'must be bare base64, without the data-URI preamble'),
          z.regex(base64, 'must be base64 text'),
        ),
    ),
  }),
);
export type UserUpdate = z.input<typeof UserUpdate>;

const reviewFields = () => ({
  /** 1 to 5 stars. */
  rating: z.int().check(z.gte(1, 'must be 1 to 5'), z.lte(5, 'must be 1 to 5')),
  /** The review text; required when the form says `requires_body`. */
  review: z.optional(z.string()),
  /** Answer ids chosen from the review form's questions. */
  answer_ids: z.optional(Ids),
});

/** `POST /skus/:sku_id/reviews`, sent as `{ review: ... }` (as recorded; the documentation does not show it). */
export const ReviewCreate = /* @__PURE__ */ lazy(() =>
  strict(reviewFields()),
);
export type ReviewCreate = z.input<typeof ReviewCreate>;

/** `PUT /skus/:sku_id/reviews/:id`, sent as `{ review: ... }` (as recorded; the documentation does not show it). */
export const ReviewUpdate = /* @__PURE__ */ lazy(() =>
  strict(optionalFields(reviewFields())),
);
export type ReviewUpdate = z.input<typeof ReviewUpdate>;

/** `POST /skus/:sku_id/reviews/:id/votes`, sent as `{ vote: ... }` (as recorded). */
export const ReviewVote = /* @__PURE__ */ lazy(() =>
  strict({ helpful: z.boolean() }),
);
export type ReviewVote = z.input<typeof ReviewVote>;

/** `POST /skus/:sku_id/reviews/:id/flags`, sent as `{ flag: ... }` (as recorded): a reason code from `GET /flags`. */
export const ReviewFlag = /* @__PURE__ */ lazy(() =>
  strict({ reason: known(FLAG_REASONS) }),
);
export type ReviewFlag = z.input<typeof ReviewFlag>;

/** `PUT /personalization`, sent as `{ personalization: ... }`. */
export const PersonalizationUpdate = /* @__PURE__ */ lazy(() =>
  strict({
    location: strict({
      /** One of the user's address ids. */
      address_id: PositiveInt,
    }),
  }),
);
export type PersonalizationUpdate = z.input<typeof PersonalizationUpdate>;

/** `POST /notifications/view`, sent as `{ ids }`: the notifications to mark viewed. */
export const NotificationIds = /* @__PURE__ */ lazy(() =>
  readonlyArray(z.array(PositiveInt).check(z.minLength(1, 'must list at least one id'))),
);
export type NotificationIds = z.input<typeof NotificationIds>;
