import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import { type ListOptions, type RequestOptions, noData } from '../../core/transport.js';
import {
  type Favorite,
  type FavoriteList,
  FavoriteListAnswer,
  FavoriteListsPage,
  FavoritesPage,
} from '../../schemas/account.js';
import { createdResource, type PageMeta } from '../../schemas/catalog/base.js';
import { FavoriteListCreate, ListParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';
import { listIdSegment } from './shared.js';

/**
 * The user's favorite lists (the Account API documentation): custom lists, auto lists (one per category,
 * negative ids) and the virtual owned list. Needs a user token with the favorites permission.
 */
export class FavoriteLists extends APIResource {
  /** `GET /favorite_lists`, page by page. */
  list(params: ListParams = {}, options?: ListOptions): PagePromise<FavoriteList, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: '/favorite_lists',
        querySchema: ListParams,
        query: params,
        schema: FavoriteListsPage,
        permission: 'favorites',
        options,
      },
      'favorite_lists',
    );
  }

  /**
   * `POST /favorite_lists`, sent as `{ favorite_list: { name } }` (201). The service refuses
   * a name that an existing custom list has (an `ApiError` with the service's message, even when
   * it answers 200 with `{ errors: { name: [...] } }`). An answer with the list bare, without its
   * root key (recorded), resolves as well, the missing key reported as drift.
   */
  create(list: FavoriteListCreate, options?: RequestOptions): APIPromise<FavoriteList> {
    return this._transport.request(() => {
      checkRequest(FavoriteListCreate, list, 'favorite list');
      return {
        api: 'account',
        method: 'POST',
        path: '/favorite_lists',
        body: { favorite_list: list },
        schema: FavoriteListAnswer,
        permission: 'favorites',
        options,
      };
    }, createdResource('favorite_list'));
  }

  /** `DELETE /favorite_lists/:id` (204); a missing list is a `NotFoundError`. */
  delete(id: number, options?: RequestOptions): APIPromise<void> {
    return this._transport.request({
      api: 'account',
      method: 'DELETE',
      path: path`/favorite_lists/${listIdSegment(id)}`,
      permission: 'favorites',
      options,
    }, noData);
  }

  /** `GET /favorite_lists/:id/favorites`: the favorites of one list, page by page. */
  favorites(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Favorite, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: path`/favorite_lists/${listIdSegment(id)}/favorites`,
        querySchema: ListParams,
        query: params,
        schema: FavoritesPage,
        permission: 'favorites',
        options,
      },
      'favorites',
    );
  }
}
