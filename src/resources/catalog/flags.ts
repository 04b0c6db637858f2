import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/transport.js';
import { type Flag, FlagsPage } from '../../schemas/catalog/books.js';
import { APIResource } from '../resource.js';

/** Moderation flags: the reasons a review can be flagged for (the Catalog API documentation). */
export class Flags extends APIResource {
  /** `GET /flags`: each `reason` is a code to give to `skus.flagReview`. */
  list(options?: RequestOptions): APIPromise<Flag[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/flags',
      schema: FlagsPage,
      options,
    }, (body) => body.flags);
  }
}
