import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import { noData, type RequestOptions } from '../../core/transport.js';
import { AvatarsAnswer, type User as UserData, UserAnswer } from '../../schemas/account.js';
import { GetParams, UserUpdate } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The signed-in user's profile (the Account API documentation). */
export class User extends APIResource {
  /** `GET /user`. */
  get(params: GetParams = {}, options?: RequestOptions): APIPromise<UserData> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user',
      query: params,
      querySchema: GetParams,
      schema: UserAnswer,
      options,
    }, (body) => body.user);
  }

  /**
   * `PATCH /user` with `sex`, `birthyear`, and an avatar: `avatar_preset` (a file name from
   * `avatars()`) or `avatar` (the image as bare base64; a `data:` URI preamble is refused).
   */
  update(changes: UserUpdate, options?: RequestOptions): APIPromise<UserData> {
    return this._transport.request(() => {
      checkRequest(UserUpdate, changes, 'profile update');
      return {
        api: 'account',
        method: 'PATCH',
        path: '/user',
        body: changes,
        schema: UserAnswer,
        options,
      };
    }, (body) => body.user);
  }

  /** `GET /user/avatars`: the preset avatar image URLs. */
  avatars(options?: RequestOptions): APIPromise<string[]> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/avatars',
      schema: AvatarsAnswer,
      options,
    }, (body) => body.avatars);
  }

  /** `DELETE /user/logout`: ends the user's session on the service (its answer body is not documented). */
  logout(options?: RequestOptions): APIPromise<void> {
    return this._transport.request({ api: 'account', method: 'DELETE', path: '/user/logout', options }, noData);
  }
}
