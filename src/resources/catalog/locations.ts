import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/transport.js';
import { type Location, LocationsPage } from '../../schemas/catalog/shops.js';
import { LocationsFindParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Shop locations near a point (the Catalog API documentation). */
export class Locations extends APIResource {
  /** `GET /locations/find?lat=&lng=`: locations with their `distance`; coordinates are decimal strings. */
  find(params: LocationsFindParams, options?: RequestOptions): APIPromise<Location[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/locations/find',
      query: params,
      querySchema: LocationsFindParams,
      schema: LocationsPage,
      options,
    }, (body) => body.locations);
  }
}
