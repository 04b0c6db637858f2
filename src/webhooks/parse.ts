import { WebhookParseError } from '../core/errors.js';
import { compileCheck } from '../schemas/in-place-check.js';
import { Order } from '../schemas/order.js';
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
  maxBodyBytes?: number;
}

/** A webhook body as received: JSON text, its bytes, or an object a body parser already made. */
export type WebhookBody = string | Uint8Array | ArrayBuffer | ArrayBufferView | object;

export type SafeParseWebhookResult =
  | { success: true; event: WebhookEvent; error?: undefined }
  | { success: false; error: WebhookParseError; event?: undefined };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses an order webhook body into a typed event.
 *
 * Tolerant like every answer: unknown fields and enum values pass through, and an
 * unknown `event_type` comes back as an {@link UnknownWebhookEvent} with the whole
 * body in `raw`. Strict on broken shape. The only error it throws is
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
    return toEvent(value);
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

interface KnownEvent {
  schema: typeof NewOrderEvent | typeof OrderUpdatedEvent;
  /** Compiled on first use; false when the schema cannot be checked in place. */
  check?: ((value: unknown) => boolean) | false;
}
const newOrder: KnownEvent = { schema: NewOrderEvent };
const orderUpdated: KnownEvent = { schema: OrderUpdatedEvent };

function toEvent(value: unknown): WebhookEvent {
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
  const known = eventType === 'new_order' ? newOrder : eventType === 'order_updated' ? orderUpdated : undefined;
  if (known === undefined) return unknownEvent(eventType, body);
  known.check ??= compileCheck(known.schema) ?? false;
  // Valid bodies are returned as they are (no copy); zod handles the rest and names the bad field.
  if (known.check !== false && known.check(body)) return body as unknown as WebhookEvent;
  const result = known.schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new WebhookParseError(describeIssue(issue, body), issue.path);
}

/** Nothing is lost: the whole body stays in `raw`, and a valid `order` is typed. */
function unknownEvent(eventType: string, body: Record<string, unknown>): UnknownWebhookEvent {
  const event: UnknownWebhookEvent = { event_type: eventType, raw: body };
  if (typeof body.event_time === 'string') event.event_time = body.event_time;
  if (body.order !== undefined && body.order !== null) {
    const order = Order.safeParse(body.order);
    if (order.success) event.order = order.data;
  }
  return event;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
}

/** zod/mini carries no message texts (they would cost bundle bytes); say it briefly here. */
function describeIssue(issue: Issue, body: unknown): string {
  if (issue.code !== 'invalid_type') return `invalid value (${issue.code})`;
  let received: unknown = body;
  for (const key of issue.path) received = (received as Record<PropertyKey, unknown> | undefined)?.[key];
  return received === undefined ? `${String(issue.path.at(-1))} is missing` : `expected ${issue.expected}, received ${kindOf(received)}`;
}

function kindOf(value: unknown): string {
  // JSON.parse turns a number too large for a double into Infinity: "received number" would puzzle.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to represent (it overflowed to Infinity)';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
