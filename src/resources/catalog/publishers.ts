import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Book, BooksPage, type Publisher, PublisherAnswer } from '../../schemas/catalog/books.js';
import type { ListMeta } from '../../schemas/catalog/categories.js';
import { GetParams, ListParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Book publishers. The documentation does not show these endpoints: paths and shapes come from recorded answers. */
export class Publishers extends APIResource {
  /** `GET /publisher/:id`. Path and shape come from recorded answers, not from the documentation. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Publisher> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/publisher/${id}`,
      query: params,
      querySchema: GetParams,
      schema: PublisherAnswer,
      options,
    }, (body) => body.publisher);
  }

  /** `GET /publisher/:id/books`, page by page. Path and shape come from recorded answers, not from the documentation. */
  books(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Book, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/publisher/${id}/books`,
        querySchema: ListParams,
        query: params,
        schema: BooksPage,
        options,
      },
      'books',
    );
  }
}
