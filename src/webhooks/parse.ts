import type * as z from 'zod/mini';
import { WebhookParseError } from '../core/errors.js';
import { adoptSpelling, inSpelling, type VendorSpelling, vendorSpelling } from '../schemas/vendor.js';
import { conforms, type Drift, type DriftReport, driftIssue, inspect, kindOf } from '../schemas/drift.js';
import { Order } from '../schemas/order.js';
import { ReturnEvent } from '../schemas/returns.js';
import {
  NewOrderEvent,
  OrderUpdatedEvent,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from '../schemas/webhook.js';

/** 1 MiB: a full order payload is a few KB, so this leaves ample room. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface ParseWebhookOptions {
  /** Bodies larger than this many bytes are refused before parsing. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * The service's vendor name (the client's `vendor`): with `'acme'`, `fulfilled_by_acme`,
   * `fees.acme_coins_fee` and `customer.acme_plus_user` fill the typed `marketplace` names,
   * and `canSetAsReady` takes `Acme Last Mile` as the marketplace's own courier.
   */
  vendor?: string | undefined;
  /** Refuse drift (a member of another type than documented) with `WebhookParseError`. Default false. */
  strict?: boolean | undefined;
  /**
   * Told of each member of another type than documented (once per path per call; the
   * webhook handler reports each path once per handler). The event is returned as sent.
   */
  onDrift?: ((report: DriftReport) => void) | undefined;
}

/** A webhook body as received: JSON text, its bytes, or an object a body parser already made. */
export type WebhookBody = string | Uint8Array | ArrayBuffer | ArrayBufferView | object;

export type SafeParseWebhookResult =
  | { success: true; event: WebhookEvent; error?: undefined }
  | { success: false; error: WebhookParseError; event?: undefined };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses an order or returns webhook body into a typed event.
 *
 * Tolerant like every answer: unknown fields and enum values pass through, and an
 * unknown `event_type` comes back as an {@link UnknownWebhookEvent} with the whole
 * body in `raw`. A member of another type than documented is drift: the event is
 * returned as sent and `onDrift` is told (with `strict`, it is refused). Refused only
 * when the event cannot be used: not an object, `event_type` missing or not a string,
 * `order` or its `code` (order events), `return` or its `return_code` (return events)
 * missing or of another type. The only error it throws is
 * `WebhookParseError`, whose `path` points at the first bad field.
 *
 * The size limit applies to text and bytes; an object is taken as already accepted.
 * A valid body is not copied: given an object, the event is that same object.
 */
export function parseWebhook(body: WebhookBody, options?: ParseWebhookOptions): WebhookEvent {
  const maxBodyBytes = options?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let value: unknown;
  if (typeof body === 'string') {
    if (utf8LengthExceeds(body, maxBodyBytes)) throw tooLarge(maxBodyBytes);
    value = parseJson(body);
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    if (body.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes);
    let text: string;
    try {
      text = utf8.decode(body);
    } catch (cause) {
      throw new WebhookParseError('body is not valid UTF-8', [], { cause });
    }
    value = parseJson(text);
  } else if (body === undefined || body === null) {
    throw new WebhookParseError('empty body');
  } else {
    value = body;
  }
  try {
    const spelling = vendorSpelling(options?.vendor);
    const event = toEvent(value, spelling, options);
    if ('order' in event && event.order !== undefined) adoptSpelling(event.order, spelling);
    return event;
  } catch (error) {
    if (error instanceof WebhookParseError) throw error;
    // Defensive: a hostile already-parsed object (getters, proxies) must not leak another error type.
    throw new WebhookParseError('body could not be read as an event', [], { cause: error });
  }
}

/** Like {@link parseWebhook}, but returns the failure instead of throwing it. */
export function safeParseWebhook(body: WebhookBody, options?: ParseWebhookOptions): SafeParseWebhookResult {
  try {
    return { success: true, event: parseWebhook(body, options) };
  } catch (error) {
    return { success: false, error: error as WebhookParseError };
  }
}

function tooLarge(maxBodyBytes: number): WebhookParseError {
  return new WebhookParseError(`body is larger than ${maxBodyBytes} bytes`);
}

/** UTF-8 takes 1 to 3 bytes per UTF-16 unit, so the length bounds the byte count both ways. */
function utf8LengthExceeds(text: string, limit: number): boolean {
  const units = text.length;
  if (units > limit) return true;
  if (units * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < units; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair (two units) is one 4-byte character.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3;
    if (bytes > limit) return true;
  }
  return false;
}

function parseJson(text: string): unknown {
  if (text.length === 0) throw new WebhookParseError('empty body');
  try {
    return JSON.parse(text);
  } catch (cause) {
    if (text.trim().length === 0) throw new WebhookParseError('empty body');
    throw new WebhookParseError('body is not valid JSON', [], { cause });
  }
}

function toEvent(value: unknown, spelling: VendorSpelling | undefined, options: ParseWebhookOptions | undefined): WebhookEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookParseError(`expected a JSON object, received ${kindOf(value)}`);
  }
  const body = value as Record<string, unknown>;
  const eventType = body.event_type;
  if (typeof eventType !== 'string') {
    throw new WebhookParseError(
      eventType === undefined ? 'event_type is missing' : `expected a string, received ${kindOf(eventType)}`,
      ['event_type'],
    );
  }
  const known: z.ZodMiniType<WebhookEvent> | undefined =
    eventType === 'new_order' ? NewOrderEvent : eventType === 'order_updated' ? OrderUpdatedEvent : undefined;
  const returns = isReturnEventType(eventType);
  if (known === undefined && !returns) return unknownEvent(eventType, body, inSpelling(Order, spelling), options);
  // A return carries no order, so no vendor's names to add.
  const schema = known === undefined ? ReturnEvent : inSpelling(known, spelling);
  // Conforming bodies are returned as they are (no copy); only a doubtful one is looked at closely.
  if (conforms(schema, body)) return body as unknown as WebhookEvent;
  const deviation = inspect(schema, body);
  if (deviation !== undefined) accept(deviation.fatal, deviation.drift, options);
  return body as unknown as WebhookEvent;
}

/** True for the returns webhook's events (`merchant_return_created`, `merchant_return_updated`), which carry a `return` instead of an `order`. */
export function isReturnEvent(event: WebhookEvent): event is ReturnEvent {
  return !('raw' in event) && isReturnEventType(event.event_type);
}

function isReturnEventType(eventType: string): eventType is ReturnEvent['event_type'] {
  return eventType === 'merchant_return_created' || eventType === 'merchant_return_updated';
}

/** Throws for what the SDK cannot use (and for drift, when strict); reports drift otherwise. */
function accept(
  fatal: readonly { path: PropertyKey[]; message: string }[],
  drift: readonly Drift[],
  options: ParseWebhookOptions | undefined,
): void {
  const refused = fatal[0] ?? (options?.strict ? drift.map(driftIssue)[0] : undefined);
  if (refused) throw new WebhookParseError(refused.message, refused.path);
  const onDrift = options?.onDrift;
  if (onDrift === undefined) return;
  for (const { path, expected, received } of drift) {
    try {
      onDrift({ api: 'webhook', method: 'POST', url: '', path, expected, received });
    } catch {
      // Watching drift never changes the outcome.
    }
  }
}

/** Nothing is lost: the whole body stays in `raw`, and a usable `order` is typed. */
function unknownEvent(
  eventType: string,
  body: Record<string, unknown>,
  orderSchema: typeof Order,
  options: ParseWebhookOptions | undefined,
): UnknownWebhookEvent {
  const event: UnknownWebhookEvent = { event_type: eventType, raw: body };
  if (typeof body.event_time === 'string') event.event_time = body.event_time;
  const order = body.order;
  if (order !== undefined && order !== null) {
    const deviation = conforms(orderSchema, order) ? undefined : inspect(orderSchema, order, ['order']);
    if (deviation === undefined) event.order = order as Order;
    else if (deviation.fatal.length === 0) {
      // Drift: reported, or refused when strict, as in a known event's order.
      accept([], deviation.drift, options);
      event.order = order as Order;
    }
  }
  return event;
}
