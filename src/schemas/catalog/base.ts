/**
 * Building blocks shared by the catalog, account and legacy schemas: tolerant
 * scalars (one schema instance each, reused to keep the bundle small) and the
 * list-page helper.
 */
import * as z from 'zod/mini';
import { maybe, record } from '../common.js';

/** A string the service may omit or send as null. */
export const text = maybe(z.string());
/** A number (integer or decimal) the service may omit or send as null. */
export const num = maybe(z.number());
/** A boolean the service may omit or send as null. */
export const bool = maybe(z.boolean());
/** An array of strings the service may omit or send as null. */
export const texts = maybe(z.array(z.string()));
/** A value whose shape the spec does not give. */
export const anything = maybe(z.unknown());
/** An object whose fields the spec does not give: every field is kept, none is checked. */
export const loose = record({});
/** A scalar the spec names without a type (a year, a page count): number or string. */
export const scalar = maybe(z.union([z.number(), z.string()]));
/** A resource identifier: required, as the SDK needs it. */
export const id = z.number();

/** meta.pagination of document 2: `{ total_results, total_pages, page, per }`. */
export const Pagination = record({
  total_results: num,
  total_pages: num,
  /** 1-based. */
  page: num,
  /** Page size (default 25). */
  per: num,
});
export type Pagination = z.infer<typeof Pagination>;

/** The `meta` of a plain list: only the pagination. */
export const PageMeta = record({ pagination: maybe(Pagination) });
export type PageMeta = z.infer<typeof PageMeta>;

/**
 * A list answer `{ [key]: Item[], meta?: Meta }`: the root key is required,
 * `meta` may be absent or null, unknown fields are kept.
 */
export function listPage<const K extends string, T extends z.ZodMiniType, M extends z.ZodMiniType = typeof PageMeta>(
  key: K,
  item: T,
  meta?: M,
) {
  const shape = { [key]: z.array(item), meta: maybe(meta ?? PageMeta) };
  return record(shape as { [P in K]: z.ZodMiniArray<T> } & { meta: z.ZodMiniOptional<z.ZodMiniNullable<M>> });
}

/** A single-resource answer `{ [key]: Resource }`: the root key is required. */
export function single<const K extends string, T extends z.ZodMiniType>(key: K, resource: T) {
  return record({ [key]: resource } as { [P in K]: T });
}

/** A strict object whose "unknown field" issue names the field. */
export function strict<S extends z.core.$ZodShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field: ${issue.keys.join(', ')}` : undefined),
  });
}
