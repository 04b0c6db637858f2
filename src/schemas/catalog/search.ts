/** Search and autocomplete (document 2). */
import * as z from 'zod/mini';
import { maybe, record } from '../common.js';
import { bool, listPage, num, Pagination, text } from './base.js';
import { Category } from './categories.js';
import { Manufacturer } from './shops.js';
import { Sku } from './skus.js';

export const SearchAlternative = record({
  term: text,
  /** True: a hint to search with this term instead. */
  important: bool,
  count: num,
  /** Tokens of the query and whether this alternative drops them. */
  drop: maybe(z.array(record({ token: text, dropped: bool }))),
});
export type SearchAlternative = z.infer<typeof SearchAlternative>;

/** `meta` of `GET /search`. */
export const SearchMeta = record({
  /** The query as the service understood it. */
  q: text,
  alternatives: maybe(z.array(SearchAlternative)),
  /** At most one each of category, manufacturer and SKU that match the query strongly. */
  strong_matches: maybe(
    record({ category: maybe(Category), manufacturer: maybe(Manufacturer), sku: maybe(Sku) }),
  ),
  pagination: maybe(Pagination),
});
export type SearchMeta = z.infer<typeof SearchMeta>;

/**
 * One autocomplete suggestion. Shape from recorded answers; the spec does not
 * show it, and the meanings below are read from the recordings.
 */
export const AutocompleteSuggestion = record({
  /** The suggested keyword. */
  k: text,
  /** Seen: 3 on every suggestion; meaning not documented. */
  i: num,
  /** The category to search the keyword in, when the suggestion is scoped: `n` its name. */
  d: maybe(record({ n: text, id: num })),
});
export type AutocompleteSuggestion = z.infer<typeof AutocompleteSuggestion>;

/** `GET /search`: categories are the main result. */
export const SearchPage = listPage('categories', Category, SearchMeta);
export type SearchPage = z.infer<typeof SearchPage>;

/** `GET /autocomplete?q=`. Shape from recorded answers; the spec does not show it. */
export const AutocompleteAnswer = listPage('autocomplete', AutocompleteSuggestion);
export type AutocompleteAnswer = z.infer<typeof AutocompleteAnswer>;
