import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import { type ListOptions, type RequestOptions, noData } from '../../core/transport.js';
import { type Notification, NotificationAnswer, NotificationsPage } from '../../schemas/account.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { GetParams, ListParams, NotificationIds } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's notification feed: price drops, availability, releases, reviews (the Account API documentation). Needs the notifications permission. */
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
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Notification> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/notifications/${id}`,
      query: params,
      querySchema: GetParams,
      schema: NotificationAnswer,
      permission: 'notifications',
      options,
    }, (body) => body.notification);
  }

  /** `POST /notifications/view`, sent as `{ ids }` (204): marks these notifications viewed. */
  markViewed(ids: NotificationIds, options?: RequestOptions): APIPromise<void> {
    return this._transport.request(() => {
      checkRequest(NotificationIds, ids, 'notification ids');
      return {
        api: 'account',
        method: 'POST',
        path: '/notifications/view',
        body: { ids },
        permission: 'notifications',
        options,
      };
    }, noData);
  }
}
