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
