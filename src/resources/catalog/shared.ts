/**
 * Internals shared by the catalog, account and legacy namespaces: request input checks
 * that reject the call's promise before anything is sent.
 */
import type * as z from 'zod/mini';
import { RequestValidationError } from '../../core/errors.js';
import { toIssues } from '../../schemas/common.js';
import { SearchQuery } from '../../schemas/query.js';

/** Checks request input against its strict schema; a bad one is a `RequestValidationError` naming the field. */
export function check<T>(schema: z.ZodMiniType<T, unknown>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new RequestValidationError(`Invalid ${what}`, toIssues(result.error, value));
}

/** `meta` of a wire list answer, absent or null both as undefined. */
export function metaOf<M>(body: { meta?: M | null | undefined }): M | undefined {
  return body.meta ?? undefined;
}

/** A search term: at least 2 characters (the service answers 422 InvalidSearch otherwise). */
export function checkSearchTerm(q: unknown, name = 'q'): void {
  const result = SearchQuery.safeParse(q);
  if (result.success) return;
  throw new RequestValidationError(
    'Invalid search',
    toIssues(result.error).map((issue) => ({ ...issue, path: [name, ...issue.path] })),
  );
}
