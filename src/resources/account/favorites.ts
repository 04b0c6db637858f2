import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Favorite, FavoriteAnswer, FavoritesPage } from '../../schemas/account.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { FavoriteCreate, FavoritesParams, FavoriteUpdate, GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's favorite SKUs (document 3). Needs a user token with the favorites permission. */
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
  async get(id: number, params: GetParams = {}, options?: RequestOptions): Promise<Favorite> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/favorites/${id}`,
      query: params,
      querySchema: GetParams,
      schema: FavoriteAnswer,
      permission: 'favorites',
      options,
    });
    return body.favorite;
  }

  /**
   * `POST /favorites`, sent as `{ favorite: { sku_id, favorite_list_id?, new_list_name? } }` (201).
   * Without a list, the favorite goes to its category's auto list.
   */
  async create(favorite: FavoriteCreate, options?: RequestOptions): Promise<Favorite> {
    checkRequest(FavoriteCreate, favorite, 'favorite');
    const body = await this._transport.request({
      api: 'account',
      method: 'POST',
      path: '/favorites',
      body: { favorite },
      schema: FavoriteAnswer,
      permission: 'favorites',
      options,
    });
    return body.favorite;
  }

  /**
   * `PUT /favorites/:id`, sent as `{ favorite: { ... } }`: move it to another list, mark it
   * owned (`have_it: true`, which wins over `favorite_list_id`), or put it in a new custom
   * list (`new_list_name`, which sets `have_it` to null). A failed update is a `BadRequestError`.
   */
  async update(id: number, favorite: FavoriteUpdate, options?: RequestOptions): Promise<Favorite> {
    checkRequest(FavoriteUpdate, favorite, 'favorite');
    const body = await this._transport.request({
      api: 'account',
      method: 'PUT',
      path: path`/favorites/${id}`,
      body: { favorite },
      schema: FavoriteAnswer,
      permission: 'favorites',
      options,
    });
    return body.favorite;
  }

  /** `DELETE /favorites/:id` (204); a missing favorite is a `NotFoundError`. */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await this._transport.request({
      api: 'account',
      method: 'DELETE',
      path: path`/favorites/${id}`,
      permission: 'favorites',
      options,
    });
  }
}
