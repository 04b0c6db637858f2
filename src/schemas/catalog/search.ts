/** Search and autocomplete (the Catalog API documentation). */
import * as z from 'zod/mini';
import { answer, type Infer, maybe, record, type Schema } from '../common.js';
import { bool, listPage, num, Pagination, text } from './base.js';
import { Category } from './categories.js';
import { Manufacturer } from './shops.js';
import { Sku } from './skus.js';

const searchAlternativeShape = () => ({
  term: text,
  /** True: a hint to search with this term instead. */
  important: bool,
  count: num,
  /** Tokens of the query and whether this alternative drops them. */
  drop: maybe(z.array(record({ token: text, dropped: bool }))),
});
export interface SearchAlternative extends Infer<typeof searchAlternativeShape> {}
export const SearchAlternative: Schema<SearchAlternative> = /* @__PURE__ */ answer(searchAlternativeShape);

const searchMetaShape = () => ({
  /** The query as the service understood it. */
  q: text,
  alternatives: maybe(z.array(SearchAlternative)),
  /** At most one each of category, manufacturer and SKU that match the query strongly. */
  strong_matches: maybe(
    record({ category: maybe(Category), manufacturer: maybe(Manufacturer), sku: maybe(Sku) }),
  ),
  pagination: maybe(Pagination),
});
/** `meta` of `GET /search`. */
export interface SearchMeta extends Infer<typeof searchMetaShape> {}
export const SearchMeta: Schema<SearchMeta> = /* @__PURE__ */ answer(searchMetaShape);

const autocompleteSuggestionShape = () => ({
  /** The suggested keyword. */
  k: text,
  /** Seen: 3 on every suggestion; meaning not documented. */
  i: num,
  /** The category to search the keyword in, when the suggestion is scoped: `n` its name. */
  d: maybe(record({ n: text, id: num })),
});
/**
 * One autocomplete suggestion. Shape from recorded answers; the documentation does not
 * show it, and the meanings below are read from the recordings.
 */
export interface AutocompleteSuggestion extends Infer<typeof autocompleteSuggestionShape> {}
export const AutocompleteSuggestion: Schema<AutocompleteSuggestion> = /* @__PURE__ */ answer(autocompleteSuggestionShape);

/** `GET /search`: categories are the main result. */
export const SearchPage = /* @__PURE__ */ listPage('categories', Category, SearchMeta);
export interface SearchPage extends z.output<typeof SearchPage> {}

/** `GET /autocomplete?q=`. Shape from recorded answers; the documentation does not show it. */
export const AutocompleteAnswer = /* @__PURE__ */ listPage('autocomplete', AutocompleteSuggestion);
export interface AutocompleteAnswer extends z.output<typeof AutocompleteAnswer> {}
