import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import type { ListOptions, RequestOptions } from '../../core/transport.js';
import { type Favorite, FavoritesPage } from '../../schemas/account.js';
import type { PageMeta } from '../../schemas/catalog/base.js';
import {
  CategoriesPage,
  type Category,
  CategoryAnswer,
  CategorySpecificationsAnswer,
  type FilterGroup,
  FilterGroupsPage,
  type ListMeta,
} from '../../schemas/catalog/categories.js';
import { type Manufacturer, ManufacturersPage } from '../../schemas/catalog/shops.js';
import { type Sku, SkusPage } from '../../schemas/catalog/skus.js';
import {
  CategoryManufacturersParams,
  CategorySkusParams,
  GetParams,
  ListParams,
  SpecificationsParams,
} from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The category tree (the Catalog API documentation). A SKU always belongs to a leaf category (`children_count: 0`). */
export class Categories extends APIResource {
  /** `GET /categories`: every category, page by page. */
  list(params: ListParams = {}, options?: ListOptions): PagePromise<Category, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: '/categories',
        querySchema: ListParams,
        query: params,
        schema: CategoriesPage,
        options,
      },
      'categories',
    );
  }

  /** `GET /categories/:id`: the single-category view. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Category> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/categories/${id}`,
      query: params,
      querySchema: GetParams,
      schema: CategoryAnswer,
      options,
    }, (body) => body.category);
  }

  /** `GET /categories/root`. */
  root(params: GetParams = {}, options?: RequestOptions): APIPromise<Category> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: '/categories/root',
      query: params,
      querySchema: GetParams,
      schema: CategoryAnswer,
      options,
    }, (body) => body.category);
  }

  /** `GET /categories/:id/parent`. */
  parent(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Category> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/categories/${id}/parent`,
      query: params,
      querySchema: GetParams,
      schema: CategoryAnswer,
      options,
    }, (body) => body.category);
  }

  /** `GET /categories/:id/children`: the direct children (not paginated). */
  children(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Category[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/categories/${id}/children`,
      query: params,
      querySchema: GetParams,
      schema: CategoriesPage,
      options,
    }, (body) => body.categories);
  }

  /**
   * `GET /categories/:id/specifications`: the category's specifications (their `values` are
   * empty). Resolves to the wire object, since `include: 'group'` adds the top-level `groups`.
   */
  specifications(
    id: number,
    params: SpecificationsParams = {},
    options?: RequestOptions,
  ): APIPromise<CategorySpecificationsAnswer> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/categories/${id}/specifications`,
      query: params,
      querySchema: SpecificationsParams,
      schema: CategorySpecificationsAnswer,
      options,
    });
  }

  /**
   * `GET /categories/:category_id/skus`: the SKUs of a leaf category, page by page. The page's
   * `meta` has `ordered_by`, `order_by_methods`, and with `include_meta` the available and
   * applied filters. Filter arrays are sent as `filter_ids[]=1&filter_ids[]=2`.
   */
  skus(id: number, params: CategorySkusParams = {}, options?: ListOptions): PagePromise<Sku, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/categories/${id}/skus`,
        querySchema: CategorySkusParams,
        query: params,
        schema: SkusPage,
        options,
      },
      'skus',
    );
  }

  /** `GET /categories/:category_id/filter_groups` (not paginated). */
  filterGroups(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<FilterGroup[]> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/categories/${id}/filter_groups`,
      query: params,
      querySchema: GetParams,
      schema: FilterGroupsPage,
      options,
    }, (body) => body.filter_groups);
  }

  /**
   * `GET /categories/:id/manufacturers`: the manufacturers with SKUs in the category, page by page.
   * Path, parameters and shape come from recorded answers, not from the documentation.
   */
  manufacturers(
    id: number,
    params: CategoryManufacturersParams = {},
    options?: ListOptions,
  ): PagePromise<Manufacturer, PageMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/categories/${id}/manufacturers`,
        querySchema: CategoryManufacturersParams,
        query: params,
        schema: ManufacturersPage,
        options,
      },
      'manufacturers',
    );
  }

  /**
   * `GET /categories/:id/favorites`: the user's favorites in the category, page by page. Needs
   * a user token with the favorites permission (sent with the account token). Path and shape
   * come from recorded answers, not from the documentation.
   */
  favorites(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Favorite, PageMeta> {
    return this._transport.list(
      {
        api: 'account',
        method: 'GET',
        path: path`/categories/${id}/favorites`,
        querySchema: ListParams,
        query: params,
        schema: FavoritesPage,
        permission: 'favorites',
        options,
      },
      'favorites',
    );
  }
}
