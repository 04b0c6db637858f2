/**
 * Building blocks shared by the catalog, account and legacy schemas: tolerant
 * scalars (one schema instance each, reused to keep the bundle small) and the
 * list-page helper.
 */
import * as z from 'zod/mini';
import { answer, expected, type Infer, lazy, maybe, record, type Schema } from '../common.js';

/** A string the service may omit or send as null. */
export const text = maybe(z.string());
/** A number (integer or decimal) the service may omit or send as null. */
export const num = maybe(z.number());
/** A boolean the service may omit or send as null. */
export const bool = maybe(z.boolean());
/** An array of strings the service may omit or send as null. */
export const texts = maybe(z.array(z.string()));
/** A value whose shape the documentation does not give. */
export const anything = maybe(z.unknown());
/** An object whose fields the documentation does not give: every field is kept, none is checked. */
export const loose = /* @__PURE__ */ lazy(() => record({}));
/** A scalar the documentation names without a type (a year, a page count): number or string. */
export const scalar = maybe(z.union([z.number(), z.string()]));
/** A resource identifier: required, as the SDK needs it. */
export const id = z.number();

const paginationShape = () => ({
  total_results: num,
  total_pages: num,
  /** 1-based. */
  page: num,
  /** Page size (default 25). */
  per: num,
});
/** meta.pagination of the Catalog API: `{ total_results, total_pages, page, per }`. */
export interface Pagination extends Infer<typeof paginationShape> {}
export const Pagination: Schema<Pagination> = /* @__PURE__ */ answer(paginationShape);

const pageMetaShape = () => ({ pagination: maybe(Pagination) });
/** The `meta` of a plain list: only the pagination. */
export interface PageMeta extends Infer<typeof pageMetaShape> {}
export const PageMeta: Schema<PageMeta> = /* @__PURE__ */ answer(pageMetaShape);

/**
 * A list answer `{ [key]: Item[], meta?: Meta }`: the root key is required,
 * `meta` may be absent or null, unknown fields are kept.
 */
/* @__NO_SIDE_EFFECTS__ */
export function listPage<const K extends string, T, M = PageMeta>(
  key: K,
  item: Schema<T>,
  meta?: Schema<M>,
): Schema<ListPage<K, T, M>> {
  return lazy(() => record({ [key]: z.array(item), meta: maybe(meta ?? PageMeta) })) as unknown as Schema<ListPage<K, T, M>>;
}

/** A list answer: the items under their root key, and the `meta`. */
export type ListPage<K extends string, T, M> = { [P in K]: T[] } & { meta?: M | null };

/** A single-resource answer `{ [key]: Resource }`: the root key is required. */
/* @__NO_SIDE_EFFECTS__ */
export function single<const K extends string, T>(key: K, resource: Schema<T>): Schema<{ [P in K]: T }> {
  return lazy(() => record({ [key]: resource })) as unknown as Schema<{ [P in K]: T }>;
}

/**
 * The answer to a write that created `resource`, under `key` as documented; recorded answers
 * (2014–2016) also send the resource bare, without the key. The resource was made either way,
 * and refusing the answer would have the caller make it again: a missing key is drift (reported,
 * refused only when strict). Read the resource with `createdResource`.
 */
export function created<const K extends string, T>(key: K, resource: Schema<T>): Schema<{ [P in K]?: T | null }> {
  return lazy(() => record({ [key]: expected(resource) })) as unknown as Schema<{ [P in K]?: T | null }>;
}

/** The created resource of a `created(key, ...)` answer: under its key, or the answer itself when sent bare. */
export const createdResource =
  <const K extends string, T>(key: K) =>
  (body: { [P in K]?: T | null }): T =>
    (body[key] ?? body) as T;

/** A strict object whose "unknown field" issue names the field. */
export function strict<S extends z.core.$ZodShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field: ${issue.keys.join(', ')}` : undefined),
  });
}
