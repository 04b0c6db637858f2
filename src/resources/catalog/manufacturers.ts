import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import { CategoriesPage, type Category, type ListMeta } from '../../schemas/catalog/categories.js';
import { type Manufacturer, ManufacturerAnswer, ManufacturersPage } from '../../schemas/catalog/shops.js';
import { type Sku, SkusPage } from '../../schemas/catalog/skus.js';
import { GetParams, ListParams, ManufacturerCategoriesParams, ManufacturerSkusParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** Manufacturers, their categories and SKUs (the Catalog API documentation). */
export class Manufacturers extends APIResource {
  /** `GET /manufacturers`, page by page. */
  list(params: ListParams = {}, options?: ListOptions): PagePromise<Manufacturer, PageMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: '/manufacturers',
        querySchema: ListParams,
        query: params,
        schema: ManufacturersPage,
        options,
      },
      'manufacturers',
    );
  }

  /** `GET /manufacturers/:id`. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Manufacturer> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/manufacturers/${id}`,
      query: params,
      querySchema: GetParams,
      schema: ManufacturerAnswer,
      options,
    }, (body) => body.manufacturer);
  }

  /** `GET /manufacturers/:id/categories`, page by page; `order_by` name or popularity (default). */
  categories(
    id: number,
    params: ManufacturerCategoriesParams = {},
    options?: ListOptions,
  ): PagePromise<Category, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/manufacturers/${id}/categories`,
        querySchema: ManufacturerCategoriesParams,
        query: params,
        schema: CategoriesPage,
        options,
      },
      'categories',
    );
  }

  /** `GET /manufacturers/:id/skus`, page by page; `order_by` price or popularity (default). */
  skus(id: number, params: ManufacturerSkusParams = {}, options?: ListOptions): PagePromise<Sku, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/manufacturers/${id}/skus`,
        querySchema: ManufacturerSkusParams,
        query: params,
        schema: SkusPage,
        options,
      },
      'skus',
    );
  }
}
