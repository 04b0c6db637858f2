import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Author, AuthorAnswer, type Book, BooksPage } from '../../schemas/catalog/books.js';
import type { ListMeta } from '../../schemas/catalog/categories.js';
import { GetParams, ListParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Book authors (the Catalog API documentation; the path is `/author`, singular). */
export class Authors extends APIResource {
  /** `GET /author/:id/`. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Author> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/author/${id}/`,
      query: params,
      querySchema: GetParams,
      schema: AuthorAnswer,
      options,
    }, (body) => body.author);
  }

  /** `GET /author/:id/books`, page by page. */
  books(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Book, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/author/${id}/books`,
        querySchema: ListParams,
        query: params,
        schema: BooksPage,
        options,
      },
      'books',
    );
  }
}
