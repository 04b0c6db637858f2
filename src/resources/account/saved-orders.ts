import type { PagePromise } from '../../core/pagination.js';
import type { ListOptions } from '../../core/transport.js';
import { type SavedOrder, SavedOrdersPage } from '../../schemas/account.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { ListParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's saved orders (the Account API documentation). */
export class SavedOrders extends APIResource {
  /** `GET /user/saved_orders`, page by page. */
  list(params: ListParams = {}, options?: ListOptions): PagePromise<SavedOrder, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: '/user/saved_orders',
        querySchema: ListParams,
        query: params,
        schema: SavedOrdersPage,
        options,
      },
      'saved_orders',
    );
  }
}
