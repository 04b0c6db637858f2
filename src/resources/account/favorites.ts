import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import { type ListOptions, type RequestOptions, noData } from '../../core/transport.js';
import { type Favorite, FavoriteAnswer, FavoriteCreatedAnswer, FavoritesPage } from '../../schemas/account.js';
import { createdResource } from '../../schemas/catalog/base.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { FavoriteCreate, FavoritesParams, FavoriteUpdate, GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's favorite SKUs (the Account API documentation). Needs a user token with the favorites permission. */
export class Favorites extends APIResource {
  /** `GET /favorites`, page by page, newest first; `owned: true` lists only owned favorites (excluded otherwise). */
  list(params: FavoritesParams = {}, options?: ListOptions): PagePromise<Favorite, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: '/favorites',
        querySchema: FavoritesParams,
        query: params,
        schema: FavoritesPage,
        permission: 'favorites',
        options,
      },
      'favorites',
    );
  }

  /** `GET /favorites/:id`. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Favorite> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/favorites/${id}`,
      query: params,
      querySchema: GetParams,
      schema: FavoriteAnswer,
      permission: 'favorites',
      options,
    }, (body) => body.favorite);
  }

  /**
   * `POST /favorites`, sent as `{ favorite: { sku_id, favorite_list_id?, new_list_name? } }` (201).
   * Without a list, the favorite goes to its category's auto list. An answer with the favorite
   * bare, without its root key (recorded), resolves as well, the missing key reported as drift.
   */
  create(favorite: FavoriteCreate, options?: RequestOptions): APIPromise<Favorite> {
    return this._transport.request(() => {
      checkRequest(FavoriteCreate, favorite, 'favorite');
      return {
        api: 'account',
        method: 'POST',
        path: '/favorites',
        body: { favorite },
        schema: FavoriteCreatedAnswer,
        permission: 'favorites',
        options,
      };
    }, createdResource('favorite'));
  }

  /**
   * `PUT /favorites/:id`, sent as `{ favorite: { ... } }`: move it to another list, mark it
   * owned (`have_it: true`, which wins over `favorite_list_id`), or put it in a new custom
   * list (`new_list_name`, which sets `have_it` to null). A failed update is a `BadRequestError`.
   */
  update(id: number, favorite: FavoriteUpdate, options?: RequestOptions): APIPromise<Favorite> {
    return this._transport.request(() => {
      checkRequest(FavoriteUpdate, favorite, 'favorite');
      return {
        api: 'account',
        method: 'PUT',
        path: path`/favorites/${id}`,
        body: { favorite },
        schema: FavoriteAnswer,
        permission: 'favorites',
        options,
      };
    }, (body) => body.favorite);
  }

  /** `DELETE /favorites/:id` (204); a missing favorite is a `NotFoundError`. */
  delete(id: number, options?: RequestOptions): APIPromise<void> {
    return this._transport.request({
      api: 'account',
      method: 'DELETE',
      path: path`/favorites/${id}`,
      permission: 'favorites',
      options,
    }, noData);
  }
}
