import { checkRequest } from '../../schemas/common.js';
import type { RequestOptions } from '../../core/transport.js';
import { AvatarsAnswer, type User as UserData, UserAnswer } from '../../schemas/account.js';
import { GetParams, UserUpdate } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The signed-in user's profile (document 3). */
export class User extends APIResource {
  /** `GET /user`. */
  async get(params: GetParams = {}, options?: RequestOptions): Promise<UserData> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user',
      query: params,
      querySchema: GetParams,
      schema: UserAnswer,
      options,
    });
    return body.user;
  }

  /**
   * `PATCH /user` with `sex`, `birthyear`, and an avatar: `avatar_preset` (a file name from
   * `avatars()`) or `avatar` (the image as bare base64; a `data:` URI preamble is refused).
   */
  async update(changes: UserUpdate, options?: RequestOptions): Promise<UserData> {
    checkRequest(UserUpdate, changes, 'profile update');
    const body = await this._transport.request({
      api: 'account',
      method: 'PATCH',
      path: '/user',
      body: changes,
      schema: UserAnswer,
      options,
    });
    return body.user;
  }

  /** `GET /user/avatars`: the preset avatar image URLs. */
  async avatars(options?: RequestOptions): Promise<string[]> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/avatars',
      schema: AvatarsAnswer,
      options,
    });
    return body.avatars;
  }

  /** `DELETE /user/logout`: ends the user's session on the service (its answer body is not documented). */
  async logout(options?: RequestOptions): Promise<void> {
    await this._transport.request({ api: 'account', method: 'DELETE', path: '/user/logout', options });
  }
}
