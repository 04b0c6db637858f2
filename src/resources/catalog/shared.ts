/** Internals shared by the catalog, account and legacy namespaces. */
import { checkRequest } from '../../schemas/common.js';
import { SearchQuery } from '../../schemas/query.js';

/** `meta` of a wire list answer, absent or null both as undefined. */
export function metaOf<M>(body: { meta?: M | null | undefined }): M | undefined {
  return body.meta ?? undefined;
}

/** A search term: at least 2 characters (the service answers 422 InvalidSearch otherwise). */
export function checkSearchTerm(q: unknown, name = 'q'): void {
  checkRequest(SearchQuery, q, 'search', [name]);
}
