import { checkRequest } from '../../schemas/common.js';
import type { RequestOptions } from '../../core/transport.js';
import { type Personalization as PersonalizationData, PersonalizationAnswer } from '../../schemas/catalog/skus.js';
import { PersonalizationUpdate } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The address and payment method that products' shipping and payment costs (`blp`) are computed for (document 2). */
export class Personalization extends APIResource {
  /** `GET /personalization`. */
  async get(options?: RequestOptions): Promise<PersonalizationData> {
    const body = await this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/personalization',
      schema: PersonalizationAnswer,
      options,
    });
    return body.personalization;
  }

  /** `PUT /personalization`, sent as `{ personalization: { location: { address_id } } }` with one of the user's address ids. */
  async update(personalization: PersonalizationUpdate, options?: RequestOptions): Promise<PersonalizationData> {
    checkRequest(PersonalizationUpdate, personalization, 'personalization');
    const body = await this._transport.request({
      api: 'catalog',
      method: 'PUT',
      path: '/personalization',
      body: { personalization },
      schema: PersonalizationAnswer,
      options,
    });
    return body.personalization;
  }
}
