/** Internals shared by the catalog, account and legacy namespaces. */
import { checkRequest } from '../../schemas/common.js';
import { SearchQuery } from '../../schemas/query.js';

/** A search term: at least 2 characters (the service answers 422 InvalidSearch otherwise). */
export function checkSearchTerm(q: unknown, name = 'q'): void {
  checkRequest(SearchQuery, q, 'search', [name]);
}
