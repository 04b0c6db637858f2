import type { RequestOptions } from '../../core/transport.js';
import { type Flag, FlagsPage } from '../../schemas/catalog/books.js';
import { APIResource } from '../resource.js';

/** Moderation flags: the reasons a review can be flagged for (document 2). */
export class Flags extends APIResource {
  /** `GET /flags`: each `reason` is a code to give to `skus.flagReview`. */
  async list(options?: RequestOptions): Promise<Flag[]> {
    const body = await this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/flags',
      schema: FlagsPage,
      options,
    });
    return body.flags;
  }
}
