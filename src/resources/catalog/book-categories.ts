import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import {
  type Book,
  BookCategoriesPage,
  type BookCategory,
  BookCategoryAnswer,
  BooksPage,
} from '../../schemas/catalog/books.js';
import type { ListMeta } from '../../schemas/catalog/categories.js';
import { BookCategoryFiltersParams, GetParams, ListParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/**
 * Book categories (a Dewey-like tree). The Catalog API documentation shows only the `filters?q=` search;
 * the other paths and shapes come from recorded answers.
 */
export class BookCategories extends APIResource {
  /** `GET /book_categories`: the top-level book categories (not paginated). From recorded answers, not from the documentation. */
  list(params: GetParams = {}, options?: RequestOptions): APIPromise<BookCategory[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/book_categories',
      query: params,
      querySchema: GetParams,
      schema: BookCategoriesPage,
      options,
    }, (body) => body.categories);
  }

  /** `GET /book_categories/:id`. Path and shape come from recorded answers, not from the documentation. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<BookCategory> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/book_categories/${id}`,
      query: params,
      querySchema: GetParams,
      schema: BookCategoryAnswer,
      options,
    }, (body) => body.category);
  }

  /**
   * `GET /book_categories/:id/books`, page by page, with `ordered_by` and `order_by_methods`
   * in the page's `meta`. Path and shape come from recorded answers, not from the documentation.
   */
  books(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Book, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/book_categories/${id}/books`,
        querySchema: ListParams,
        query: params,
        schema: BooksPage,
        options,
      },
      'books',
    );
  }

  /**
   * `filters(id)`: `GET /book_categories/:id/filters`, the subcategories of a book category,
   * with the category itself as `meta.ancestor` (path and shape from recorded answers, not
   * from the documentation). `filters({ q })`: `GET /book_categories/filters?q=`, the book categories
   * matching a term, each with `match_count` (the Catalog API documentation); `q` of at least 2 characters.
   * Resolves to the wire object, since `meta.ancestor` carries data.
   */
  filters(idOrSearch: number | BookCategoryFiltersParams, options?: RequestOptions): APIPromise<BookCategoriesPage> {
    return this._transport.request(() => {
      if (typeof idOrSearch === 'number') {
        return {
          api: 'catalog',
          method: 'GET',
          path: path`/book_categories/${idOrSearch}/filters`,
          schema: BookCategoriesPage,
          options,
        };
      }
      checkRequest(BookCategoryFiltersParams, idOrSearch, 'parameters');
      return {
        api: 'catalog',
        method: 'GET',
        path: '/book_categories/filters',
        query: idOrSearch,
        schema: BookCategoriesPage,
        options,
      };
    });
  }
}

