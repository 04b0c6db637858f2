import type { APIPromise } from '../../core/api-promise.js';
import * as z from 'zod/mini';
import { checkRequest, lazy } from '../../schemas/common.js';
import type { PagePromise } from '../../core/pagination.js';
import { path } from '../../core/paths.js';
import { type ListOptions, type RequestOptions, noData } from '../../core/transport.js';
import { type Favorite, FavoritesPage } from '../../schemas/account.js';
import type { ListMeta } from '../../schemas/catalog/categories.js';
import { createdResource } from '../../schemas/catalog/base.js';
import {
  type ReviewForm,
  ReviewFormAnswer,
  type SkuReview,
  SkuReviewAnswer,
  SkuReviewFlag,
  type SkuReviewsMeta,
  SkuReviewsPage,
  type SkuReviewVote,
  SkuReviewVoteAnswer,
} from '../../schemas/catalog/reviews.js';
import {
  type PriceHistory,
  PriceHistoryAnswer,
  type Product,
  type ProductCardGroup,
  ProductCardsPage,
  type ProductsMeta,
  ProductsPage,
  type Sku,
  SkuAnswer,
  SkuSpecificationsAnswer,
  SkusPage,
} from '../../schemas/catalog/skus.js';
import {
  GetParams,
  ListParams,
  ReviewCreate,
  ReviewFlag,
  ReviewUpdate,
  ReviewVote,
  ReviewVoteParams,
  SkuReviewsParams,
  SpecificationsParams,
} from '../../schemas/query.js';
import { APIResource } from '../resource.js';

const REVIEW_PERMISSION = 'publish_sku_review_actions';
/** A flag's answer, or none at all (201 with an empty body, recorded). */
const SkuReviewFlagOrNone = /* @__PURE__ */ lazy(() => z.optional(SkuReviewFlag));

/**
 * SKUs: a SKU aggregates the products (offers) that shops sell of one item (the Catalog API documentation).
 * Methods marked "from recorded answers" are endpoints the documentation names without showing:
 * their paths and shapes are the recorded real ones, less firm than the documentation's.
 */
export class Skus extends APIResource {
  /** `GET /skus/:id`. Path and shape come from recorded answers, not from the documentation. */
  get(id: number, params: GetParams = {}, options?: RequestOptions): APIPromise<Sku> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/skus/${id}`,
      query: params,
      querySchema: GetParams,
      schema: SkuAnswer,
      options,
    }, (body) => body.sku);
  }

  /**
   * `GET /skus/:id/specifications`. Resolves to the wire object: its `meta.full_description`
   * holds the SKU's full description, and `include: 'group'` adds `groups`.
   */
  specifications(
    id: number,
    params: SpecificationsParams = {},
    options?: RequestOptions,
  ): APIPromise<SkuSpecificationsAnswer> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/skus/${id}/specifications`,
      query: params,
      querySchema: SpecificationsParams,
      schema: SkuSpecificationsAnswer,
      options,
    });
  }

  /** `GET /skus/:id/price_history`: the last 6 months; no data for too new SKUs. */
  priceHistory(id: number, options?: RequestOptions): APIPromise<PriceHistory> {
    return this._transport.request({
      api: 'catalog',
      method: 'GET',
      path: path`/skus/${id}/price_history`,
      schema: PriceHistoryAnswer,
      options,
    }, (body) => body.history);
  }

  /**
   * `GET /skus/:id/favorite`: the user's favorites of this SKU (empty when not favorited).
   * Needs a user token with the favorites permission (sent with the account token).
   */
  favorite(id: number, options?: RequestOptions): APIPromise<Favorite[]> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/skus/${id}/favorite`,
      schema: FavoritesPage,
      permission: 'favorites',
      options,
    }, (body) => body.favorites);
  }

  /** `GET /skus/:id/similar`, page by page. Path and shape come from recorded answers, not from the documentation. */
  similar(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Sku, ListMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/skus/${id}/similar`,
        querySchema: ListParams,
        query: params,
        schema: SkusPage,
        options,
      },
      'skus',
    );
  }

  /**
   * `GET /skus/:id/products`: the SKU's offers, page by page; `meta.personalization` (on the
   * page's `meta`) is the address the costs were computed for. Path and shape come from
   * recorded answers, not from the documentation.
   */
  products(id: number, params: ListParams = {}, options?: ListOptions): PagePromise<Product, ProductsMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/skus/${id}/products`,
        querySchema: ListParams,
        query: params,
        schema: ProductsPage,
        options,
      },
      'products',
    );
  }

  /**
   * `GET /skus/:id/product_cards`: the SKU's offers grouped per shop, page by page. Path and
   * shape come from recorded answers, not from the documentation.
   */
  productCards(
    id: number,
    params: ListParams = {},
    options?: ListOptions,
  ): PagePromise<ProductCardGroup, ProductsMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/skus/${id}/product_cards`,
        querySchema: ListParams,
        query: params,
        schema: ProductCardsPage,
        options,
      },
      'product_cards',
    );
  }

  /**
   * `GET /skus/:id/reviews`, page by page (most recent non-demoted first). `include_meta`
   * `'sku_reviews_aggregation'` and `'sku_rating_breakdown'` fill the page's `meta`.
   * Path and shape come from recorded answers, not from the documentation.
   */
  reviews(id: number, params: SkuReviewsParams = {}, options?: ListOptions): PagePromise<SkuReview, SkuReviewsMeta> {
    return this._transport.list(
      {
        api: 'catalog',
        method: 'GET',
        path: path`/skus/${id}/reviews`,
        querySchema: SkuReviewsParams,
        query: params,
        schema: SkuReviewsPage,
        options,
      },
      'reviews',
    );
  }

  /**
   * `GET /skus/:sku_id/reviews/new`: the questions of a new review. Needs a user token
   * (sent with the account token). Path and shape come from recorded answers, not from the documentation.
   */
  newReviewForm(skuId: number, options?: RequestOptions): APIPromise<ReviewForm> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/skus/${skuId}/reviews/new`,
      schema: ReviewFormAnswer,
      permission: REVIEW_PERMISSION,
      options,
    }, (body) => body.review_form);
  }

  /**
   * `GET /skus/:sku_id/reviews/:id/edit`: the form of the user's review with its earlier
   * answers `selected`. Path and shape come from recorded answers, not from the documentation.
   */
  editReviewForm(skuId: number, reviewId: number, options?: RequestOptions): APIPromise<ReviewForm> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: path`/skus/${skuId}/reviews/${reviewId}/edit`,
      schema: ReviewFormAnswer,
      permission: REVIEW_PERMISSION,
      options,
    }, (body) => body.review_form);
  }

  /**
   * `POST /skus/:sku_id/reviews`, sent as `{ review: { rating, review?, answer_ids? } }`.
   * Needs the publish_sku_review_actions permission. Body and shape come from recorded
   * answers, not from the documentation.
   */
  createReview(skuId: number, review: ReviewCreate, options?: RequestOptions): APIPromise<SkuReview> {
    return this._transport.request(() => {
      checkRequest(ReviewCreate, review, 'review');
      return {
        api: 'account',
        method: 'POST',
        path: path`/skus/${skuId}/reviews`,
        body: { review },
        schema: SkuReviewAnswer,
        permission: REVIEW_PERMISSION,
        options,
      };
    }, (body) => body.sku_review);
  }

  /**
   * `PUT /skus/:sku_id/reviews/:id`, sent as `{ review: { ... } }` with any subset of the
   * fields. Needs the publish_sku_review_actions permission. Body and shape come from
   * recorded answers, not from the documentation.
   */
  updateReview(
    skuId: number,
    reviewId: number,
    review: ReviewUpdate,
    options?: RequestOptions,
  ): APIPromise<SkuReview> {
    return this._transport.request(() => {
      checkRequest(ReviewUpdate, review, 'review');
      return {
        api: 'account',
        method: 'PUT',
        path: path`/skus/${skuId}/reviews/${reviewId}`,
        body: { review },
        schema: SkuReviewAnswer,
        permission: REVIEW_PERMISSION,
        options,
      };
    }, (body) => body.sku_review);
  }

  /**
   * `DELETE /skus/:sku_id/reviews/:id` (204). Needs the publish_sku_review_actions
   * permission. Path and answer come from recorded answers, not from the documentation.
   */
  deleteReview(skuId: number, reviewId: number, options?: RequestOptions): APIPromise<void> {
    return this._transport.request({
      api: 'account',
      method: 'DELETE',
      path: path`/skus/${skuId}/reviews/${reviewId}`,
      permission: REVIEW_PERMISSION,
      options,
    }, noData);
  }

  /**
   * `POST /skus/:sku_id/reviews/:id/votes`, sent as `{ vote: { helpful } }` (the documentation's
   * `{?vote}`; the recorded requests send it in the body). `embed: 'sku_review'` nests the
   * voted review in the answer. Needs the publish_sku_review_actions permission. Shape
   * comes from recorded answers, not from the documentation; an answer with the vote bare,
   * without its root key (older recordings), resolves as well, the missing key reported as drift.
   */
  voteReview(
    skuId: number,
    reviewId: number,
    vote: ReviewVote,
    params: ReviewVoteParams = {},
    options?: RequestOptions,
  ): APIPromise<SkuReviewVote> {
    return this._transport.request(() => {
      checkRequest(ReviewVote, vote, 'vote');
      return {
        api: 'account',
        method: 'POST',
        path: path`/skus/${skuId}/reviews/${reviewId}/votes`,
        query: params,
        querySchema: ReviewVoteParams,
        body: { vote },
        schema: SkuReviewVoteAnswer,
        permission: REVIEW_PERMISSION,
        options,
      };
    }, createdResource('sku_review_vote'));
  }

  /**
   * `POST /skus/:sku_id/reviews/:id/flags`, sent as `{ flag: { reason } }` with a reason
   * from `catalog.flags.list()`. The answer is a bare object, no root key. Needs the
   * publish_sku_review_actions permission. Body and shape come from recorded answers, not
   * from the documentation. Older recordings answer 201 with no body: the flag was made, so
   * that resolves to `undefined` rather than failing a call that a retry would repeat.
   */
  flagReview(
    skuId: number,
    reviewId: number,
    flag: ReviewFlag,
    options?: RequestOptions,
  ): APIPromise<SkuReviewFlag | undefined> {
    return this._transport.request(() => {
      checkRequest(ReviewFlag, flag, 'flag');
      return {
        api: 'account',
        method: 'POST',
        path: path`/skus/${skuId}/reviews/${reviewId}/flags`,
        body: { flag },
        schema: SkuReviewFlagOrNone,
        permission: REVIEW_PERMISSION,
        options,
      };
    });
  }
}
