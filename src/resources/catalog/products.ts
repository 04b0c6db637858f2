import type { APIPromise } from '../../core/api-promise.js';
import { path } from '../../core/paths.js';
import type { RequestOptions } from '../../core/transport.js';
import { ProductAnswer } from '../../schemas/catalog/skus.js';
import { GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Products: single shop offers of a SKU (the Catalog API documentation). */
export class CatalogProducts extends APIResource {
  /**
   * `GET /products/:id`. Resolves to the wire object `{ product, meta }`: `meta.personalization`
   * is the address and payment method its `blp` costs were computed for.
   */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<ProductAnswer> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/products/${id}`,
      query: params,
      querySchema: GetParams,
      schema: ProductAnswer,
      options,
    });
  }
}
