/** The webhook receiver's public names (the handler, parsing, source ranges): `emporio/webhooks` and the root entry export them. */
export { EmporioError, WebhookParseError } from '../core/errors.js';
export type { DriftReport } from '../schemas/drift.js';
export type { Order } from '../schemas/order.js';
export type { Return, ReturnChanges, ReturnEvent, ReturnLineItem, ReturningAddress, ReviewOption } from '../schemas/returns.js';
export type {
  NewOrderEvent,
  OrderChanges,
  OrderUpdatedEvent,
  UnknownWebhookEvent,
  WebhookEvent,
} from '../schemas/webhook.js';
export {
  createWebhookHandler,
  type WebhookDedupeStore,
  type WebhookErrorInfo,
  type WebhookEventContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookRefusalReason,
} from './handler.js';
export { isAllowedSourceIp, sourceRangesFromJson, WEBHOOK_SOURCE_RANGES } from './ip.js';
export { type NodeRequestLike, type NodeResponseLike, toNodeHandler } from './node.js';
export {
  isReturnEvent,
  type ParseWebhookOptions,
  parseWebhook,
  type SafeParseWebhookResult,
  safeParseWebhook,
  type WebhookBody,
} from './parse.js';
