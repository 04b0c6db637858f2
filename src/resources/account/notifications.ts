import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Notification, NotificationAnswer, NotificationsPage } from '../../schemas/account.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { GetParams, ListParams, NotificationIds } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's notification feed: price drops, availability, releases, reviews (document 3). Needs the notifications permission. */
export class Notifications extends APIResource {
  /** `GET /notifications`, page by page. */
  list(params: ListParams = {}, options?: ListOptions): PagePromise<Notification, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: '/notifications',
        querySchema: ListParams,
        query: params,
        schema: NotificationsPage,
        permission: 'notifications',
        options,
      },
      'notifications',
    );
  }

  /** `GET /notifications/:id`. */
  async get(id: number, params: GetParams = {}, options?: RequestOptions): Promise<Notification> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/notifications/${id}`,
      query: params,
      querySchema: GetParams,
      schema: NotificationAnswer,
      permission: 'notifications',
      options,
    });
    return body.notification;
  }

  /** `POST /notifications/view`, sent as `{ ids }` (204): marks these notifications viewed. */
  async markViewed(ids: NotificationIds, options?: RequestOptions): Promise<void> {
    checkRequest(NotificationIds, ids, 'notification ids');
    await this._transport.request({
      api: 'account',
      method: 'POST',
      path: '/notifications/view',
      body: { ids },
      permission: 'notifications',
      options,
    });
  }
}
