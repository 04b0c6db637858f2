export { MarketplaceClient } from './client.js';
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
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  WebhookParseError,
  type ValidationIssue,
  type WireError,
} from './core/errors.js';
export type { Logger } from './core/logger.js';
export type { ApiName, ClientOptions, Hooks, TokenSource } from './core/options.js';
export { Page, PagePromise, type Pagination } from './core/pagination.js';
export type { RateLimitBudget, RateLimitInfo } from './core/rate-limit.js';
export type { ListOptions, RequestOptions } from './core/transport.js';
export { VERSION } from './version.js';
export {
  canSetAsNotReady,
  canSetAsReady,
  type Eligibility,
  type EligibilityOrder,
  hasErrorCode,
  type InvoiceFile,
  isNotEligibleForReady,
  isOrderAlreadyAccepted,
  isOrderNotFound,
  isShopBusy,
  ORDER_ERROR_CODES,
  type OrderErrorCode,
  type ReadyParams,
  type RejectCallOptions,
} from './resources/orders/index.js';
export type { UpdateManyOptions, UpdateManyProgress, UpdateManyReport } from './resources/products/index.js';
// Wire types, inferred from the schemas (the schemas themselves stay internal).
export type * from './schemas/account.js';
export type * from './schemas/catalog.js';
export type * from './schemas/legacy.js';
export type * from './schemas/order.js';
export type * from './schemas/products.js';
export type * from './schemas/query.js';
// Webhooks: the same module as `emporio/webhooks`, so the error classes are the same objects.
export * from './webhooks/index.js';
