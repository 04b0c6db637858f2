import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Book, BookAnswer, type BookDetails, BookDetailsAnswer, BooksPage } from '../../schemas/catalog/books.js';
import type { ListMeta } from '../../schemas/catalog/categories.js';
import { type BooksSearchParams, BooksSearchRequest, GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Books (the Catalog API documentation). */
export class Books extends APIResource {
  /** `GET /books/:id`. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Book> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/books/${id}`,
      query: params,
      querySchema: GetParams,
      schema: BookAnswer,
      options,
    }, (body) => body.book);
  }

  /** `GET /books/:id/details`: series, cover, year, pages, ISBN and description. */
  details(id: number, options?: RequestOptions): APIPromise<BookDetails> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/books/${id}/details`,
      schema: BookDetailsAnswer,
      options,
    }, (body) => body.book_details);
  }

  /** `GET /books/:id/similar_by_author` (not paginated). */
  similarByAuthor(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Book[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/books/${id}/similar_by_author`,
      query: params,
      querySchema: GetParams,
      schema: BooksPage,
      options,
    }, (body) => body.books);
  }

  /**
   * `GET /books/search?q=`, page by page; the page's `meta` has `ordered_by` and
   * `order_by_methods` (pricevat, popularity, created_on). `q` of at least 2 characters,
   * or `RequestValidationError` before sending.
   */
  search(q: string, params: BooksSearchParams = {}, options?: ListOptions): PagePromise<Book, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: '/books/search',
        querySchema: BooksSearchRequest,
        query: { ...params, q },
        schema: BooksPage,
        options,
      },
      'books',
    );
  }
}
