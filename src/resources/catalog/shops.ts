import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import {
  type Location,
  LocationAnswer,
  LocationsPage,
  type Shop,
  ShopAnswer,
  type ShopReview,
  type ShopReviewsMeta,
  ShopReviewsPage,
  ShopsPage,
} from '../../schemas/catalog/shops.js';
import { type Product, ProductsPage } from '../../schemas/catalog/skus.js';
import {
  GetParams,
  LocationsParams,
  ShopProductSearchParams,
  ShopReviewsParams,
  ShopsSearchParams,
} from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Shops, their reviews and locations (the Catalog API documentation). */
export class Shops extends APIResource {
  /** `GET /shops/:id`. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Shop> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/shops/${id}`,
      query: params,
      querySchema: GetParams,
      schema: ShopAnswer,
      options,
    }, (body) => body.shop);
  }

  /**
   * `GET /shops/:id/reviews`, page by page. With `include_meta: 'shop_rating_breakdown'` the
   * page's `meta.shop_rating_breakdown` has the positive and negative shares.
   */
  reviews(id: number, params: ShopReviewsParams = {}, options?: ListOptions): PagePromise<ShopReview, ShopReviewsMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/shops/${id}/reviews`,
        querySchema: ShopReviewsParams,
        query: params,
        schema: ShopReviewsPage,
        options,
      },
      'reviews',
    );
  }

  /** `GET /shops/:shop_id/locations`; `embed: 'address'` nests each address. */
  locations(shopId: number, params: LocationsParams = {}, options?: RequestOptions): APIPromise<Location[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/shops/${shopId}/locations`,
      query: params,
      querySchema: LocationsParams,
      schema: LocationsPage,
      options,
    }, (body) => body.locations);
  }

  /** `GET /shops/:shop_id/locations/:id`; `embed: 'address'` nests the address. */
  location(
    shopId: number,
    locationId: number,
    params: LocationsParams = {},
    options?: RequestOptions,
  ): APIPromise<Location> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/shops/${shopId}/locations/${locationId}`,
      query: params,
      querySchema: LocationsParams,
      schema: LocationAnswer,
      options,
    }, (body) => body.location);
  }

  /** `GET /shops/search?q=`: `q` of at least 2 characters, or `RequestValidationError` before sending. */
  search(q: string, params: Omit<ShopsSearchParams, 'q'> = {}, options?: RequestOptions): APIPromise<Shop[]> {
    return this._transport.request(() => {
      const query = { ...params, q };
      checkRequest(ShopsSearchParams, query, 'search');
      return {
        api: 'catalog',
        method: 'GET',
        path: '/shops/search',
        query,
        schema: ShopsPage,
        options,
      };
    }, (body) => body.shops);
  }

  /**
   * `GET /shops/:shop_id/products/search?shop_uid=`: the shop's products by its own product
   * identifier (a string, as real values have leading zeros).
   */
  searchProducts(
    shopId: number,
    params: ShopProductSearchParams,
    options?: RequestOptions,
  ): APIPromise<Product[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/shops/${shopId}/products/search`,
      query: params,
      querySchema: ShopProductSearchParams,
      schema: ProductsPage,
      options,
    }, (body) => body.products);
  }
}
