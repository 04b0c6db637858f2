import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { RequestOptions } from '../../core/transport.js';
import { type Personalization as PersonalizationData, PersonalizationAnswer } from '../../schemas/catalog/skus.js';
import { PersonalizationUpdate } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The address and payment method that products' shipping and payment costs (`blp`) are computed for (the Catalog API documentation). */
export class Personalization extends APIResource {
  /** `GET /personalization`. */
  get(options?: RequestOptions): APIPromise<PersonalizationData> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/personalization',
      schema: PersonalizationAnswer,
      options,
    }, (body) => body.personalization);
  }

  /** `PUT /personalization`, sent as `{ personalization: { location: { address_id } } }` with one of the user's address ids. */
  update(personalization: PersonalizationUpdate, options?: RequestOptions): APIPromise<PersonalizationData> {
    return this._transport.request(() => {
      checkRequest(PersonalizationUpdate, personalization, 'personalization');
      return {
        api: 'catalog',
        method: 'PUT',
        path: '/personalization',
        body: { personalization },
        schema: PersonalizationAnswer,
        options,
      };
    }, (body) => body.personalization);
  }
}
