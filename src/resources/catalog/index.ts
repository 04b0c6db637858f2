import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import type { Transport } from '../../core/transport.js';
import type { Category } from '../../schemas/catalog/categories.js';
import {
  AutocompleteAnswer,
  type AutocompleteSuggestion,
  type SearchMeta,
  SearchPage,
} from '../../schemas/catalog/search.js';
import { type SearchParams, SearchRequest } from '../../schemas/query.js';
import { APIResource } from '../resource.js';
import { Authors } from './authors.js';
import { BookCategories } from './book-categories.js';
import { Books } from './books.js';
import { Categories } from './categories.js';
import { Flags } from './flags.js';
import { Locations } from './locations.js';
import { Manufacturers } from './manufacturers.js';
import { Personalization } from './personalization.js';
import { CatalogProducts } from './products.js';
import { Publishers } from './publishers.js';
import { checkSearchTerm} from './shared.js';
import { Shops } from './shops.js';
import { Skus } from './skus.js';

/** The public catalog API v3 (the Catalog API documentation): categories, SKUs, products, shops, manufacturers, search, books. */
export class Catalog extends APIResource {
  readonly categories: Categories;
  readonly skus: Skus;
  readonly products: CatalogProducts;
  readonly shops: Shops;
  readonly locations: Locations;
  readonly manufacturers: Manufacturers;
  readonly books: Books;
  readonly authors: Authors;
  readonly bookCategories: BookCategories;
  readonly publishers: Publishers;
  readonly flags: Flags;
  readonly personalization: Personalization;

  /** @internal */
  constructor(transport: Transport) {
    super(transport);
    this.categories = new Categories(transport);
    this.skus = new Skus(transport);
    this.products = new CatalogProducts(transport);
    this.shops = new Shops(transport);
    this.locations = new Locations(transport);
    this.manufacturers = new Manufacturers(transport);
    this.books = new Books(transport);
    this.authors = new Authors(transport);
    this.bookCategories = new BookCategories(transport);
    this.publishers = new Publishers(transport);
    this.flags = new Flags(transport);
    this.personalization = new Personalization(transport);
  }

  /**
   * `GET /search?q=`: categories are the main result, page by page. The page's `meta` has the
   * understood `q`, `alternatives` (an `important` one is a hint to search with that term
   * instead) and `strong_matches`. A query without matches gives an empty page. `q` of at
   * least 2 characters, or `RequestValidationError` before sending.
   */
  search(q: string, params: SearchParams = {}, options?: ListOptions): PagePromise<Category, SearchMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: '/search',
        querySchema: SearchRequest,
        query: { ...params, q },
        schema: SearchPage,
        options,
      },
      'categories',
    );
  }

  /**
   * `GET /autocomplete?q=`: suggestions while typing (`k` the keyword, `d` the category to
   * search it in, when scoped). Path and shape come from recorded answers, not from the documentation.
   */
  autocomplete(q: string, options?: RequestOptions): APIPromise<AutocompleteSuggestion[]> {
    return this._transport.request(() => {
      checkSearchTerm(q);
      return {
        api: 'catalog',
        method: 'GET',
        path: '/autocomplete',
        query: { q },
        schema: AutocompleteAnswer,
        options,
      };
    }, (body) => body.autocomplete);
  }
}

export type { Authors, BookCategories, Books, Categories, CatalogProducts, Flags, Locations, Manufacturers, Personalization, Publishers, Shops, Skus };
