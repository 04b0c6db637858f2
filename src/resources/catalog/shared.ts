/**
 * Internals shared by the catalog, account and legacy namespaces: request input checks
 * that reject the call's promise before anything is sent, also for paginated lists.
 */
import type * as z from 'zod/mini';
import { RequestValidationError } from '../../core/errors.js';
import { RequestPath } from '../../core/paths.js';
import { toIssues } from '../../schemas/common.js';
import { SearchQuery } from '../../schemas/query.js';

/** Checks request input against its strict schema; a bad one is a `RequestValidationError` naming the field. */
export function check<T>(schema: z.ZodMiniType<T, unknown>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new RequestValidationError(`Invalid ${what}`, toIssues(result.error));
}

/**
 * A path that runs `validate` when the request is built. The transport builds the URL inside
 * its async send, so a failed check rejects the call's promise and nothing is sent, even for
 * a `PagePromise`, which a list method returns without awaiting.
 */
class CheckedPath extends RequestPath {
  readonly #inner: RequestPath | string;
  readonly #validate: () => void;

  constructor(inner: RequestPath | string, validate: () => void) {
    super([], []);
    this.#inner = inner;
    this.#validate = validate;
  }

  override build(): string {
    this.#validate();
    return typeof this.#inner === 'string' ? this.#inner : this.#inner.build();
  }
}

export function checkedPath(inner: RequestPath | string, validate: () => void): RequestPath {
  return new CheckedPath(inner, validate);
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
