export { MarketplaceClient } from './client.js';
export type { APIPromise, APIResponse, WithResponse } from './core/api-promise.js';
export type { CacheStore, CachedAnswer } from './core/cache.js';
export { MemoryCache } from './core/cache.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  EmporioError,
  InternalServerError,
  LegacyApiError,
  NotFoundError,
  NotImplementedError,
  PermissionDeniedError,
  RateLimitBudgetError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  WebhookParseError,
  type ValidationIssue,
  type WireError,
} from './core/errors.js';
export type { Logger } from './core/logger.js';
export type { ApiName, ClientOptions, Hooks, RefreshableTokenSource, TokenSource } from './core/options.js';
export {
  type AuthorizationUrlOptions,
  authorizationUrl,
  type ClientCredentialsOptions,
  clientCredentials,
  type ExchangeAuthorizationCodeOptions,
  exchangeAuthorizationCode,
  type OAuthTokens,
  type TokenRequestOptions,
  type UserTokenOptions,
  userToken,
} from './core/oauth.js';
export { Page, PagePromise, type Pagination } from './core/pagination.js';
export type { RateLimitBudget, RateLimitInfo, RateLimitSettle, RateLimitStep, RateLimitStepResult, RateLimitStore } from './core/rate-limit.js';
export type { ListOptions, RequestOptions } from './core/transport.js';
export { VERSION } from './version.js';
export {
  canSetAsNotReady,
  canSetAsReady,
  type Eligibility,
  type EligibilityOptions,
  type EligibilityOrder,
  type GetOrderOptions,
  hasErrorCode,
  type InvoiceFile,
  isNotEligibleForReady,
  isOrderAlreadyAccepted,
  isOrderAlreadyRejected,
  isOrderExpress,
  isOrderNotFound,
  isShopBusy,
  ORDER_ERROR_CODES,
  type OrderErrorCode,
  type ReadyParams,
  type RejectCallOptions,
  WEBHOOK_TRIGGER_KINDS,
  type WebhookTriggerKind,
} from './resources/orders/index.js';
export type { UpdateManyOptions, UpdateManyProgress, UpdateManyReport } from './resources/products/index.js';
export { BatchItemError, BatchTimeoutError, type UpdateManyFailure, type WaitForBatchOptions } from './resources/products/index.js';
export { isReturnNotReviewable } from './resources/returns.js';
// Wire types, inferred from the schemas (the schemas themselves stay internal). tsup's bundled
// declarations lose the `type` of these; scripts/restore-type-exports.mjs puts it back after the build.
export type * from './schemas/account.js';
export type * from './schemas/catalog.js';
export type * from './schemas/cps.js';
export type * from './schemas/fbs.js';
export type * from './schemas/legacy.js';
export type * from './schemas/order.js';
export type { OrdersListParams } from './schemas/order-listing.js';
export type * from './schemas/pickup-moves.js';
export type * from './schemas/products.js';
export type * from './schemas/query.js';
export type * from './schemas/returns.js';
export type { SuccessAnswer } from './schemas/common.js';
// Named as well: reached both by `export type *` above and by `export *` of the webhooks below,
// TypeScript takes it for a value export.
export type { Order } from './schemas/order.js';
export type { Return, ReturnChanges, ReturnEvent, ReturnLineItem, ReturningAddress, ReviewOption } from './schemas/returns.js';
// Known values of open enums, for users who list or validate them.
export { FLAG_REASONS } from './schemas/catalog/books.js';
export { FILTER_TYPES } from './schemas/catalog/categories.js';
export { NOTIFICATION_ETYPES } from './schemas/account.js';
export { LEGACY_ERROR_CODES, LEGACY_SEARCH_TYPES } from './schemas/legacy.js';
export { ID_TYPES, ORDER_STATES } from './schemas/order.js';
export { RETURN_STATES } from './schemas/returns.js';
// Webhooks: the same module as `emporio/webhooks`, so the error classes are the same objects.
export * from './webhooks/receiver.js';
export type { DeadLetter, InboxClaim, InboxDelivery, InboxEntry, InboxFailure, WebhookInbox } from './webhooks/inbox.js';
// Tracked orders and deadline alerts: the tracker's code loads with its first use.
export { createOrderTracker } from './orders-tracker/lazy.js';
export type { DeadlineInfo, DeadlineKind, OrderTracker, OrderTrackerEventContext, OrderTrackerOptions } from './orders-tracker/tracker.js';
export type { OrderTrackerStore, TrackedOrder } from './orders-tracker/store.js';
export type { TrackedOrderFields } from './orders-tracker/snapshot.js';
// Namespace classes, as types for annotations; sub-namespaces are reachable as e.g. `Catalog['skus']`.
export type { Account } from './resources/account/index.js';
export type { Catalog } from './resources/catalog/index.js';
export type { Cps, CpsRejectCallOptions } from './resources/cps.js';
export type { Fbs } from './resources/fbs.js';
export type { LegacySession, LegacySkuLookup, LegacyV2 } from './resources/legacy-v2.js';
export type { Orders } from './resources/orders/index.js';
export type { KeyCheck, KeyReport } from './resources/keys.js';
export type { Products } from './resources/products/index.js';
export type { Returns } from './resources/returns.js';
