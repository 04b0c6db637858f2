/**
 * The webhook handler's answers other than 200: why each was given (`WebhookRefusalReason`), and
 * how `onError` or the logger hears of it, never with the URL secret or the body.
 */
import type { Logger } from '../core/logger.js';
import { printable } from './sender.js';

/** Why a delivery was not answered 200 (`info.reason` of `onError`). */
export type WebhookRefusalReason =
  /** 404: the URL does not carry the `urlSecret`. */
  | 'url_secret'
  /** 405: not a POST. */
  | 'method'
  /** 403: the sender's address is not in `allowedRanges` (or, behind proxies, `trustProxy` does not match them). */
  | 'source_address'
  /** 413: the body is larger than `maxBodyBytes`. */
  | 'body_too_large'
  /** 400: the body could not be read. */
  | 'body_unreadable'
  /** 400: the body is not an event the SDK can use (not JSON, no `event_type`, no order `code`). */
  | 'body_invalid'
  /** 409: a redelivery that arrived while the first delivery is still being handled. */
  | 'in_progress'
  /** 500: `onEvent` threw (or rejected). */
  | 'handler_failed'
  /** 500: `onEvent` took longer than `handlerTimeoutMs`. */
  | 'handler_timeout'
  /** 500: a dedupe-store call took longer than `handlerTimeoutMs`. */
  | 'store_timeout'
  /** 500: the inbox did not take the delivery (it failed, or took longer than `handlerTimeoutMs`). */
  | 'inbox_failed';

/** What `onError` is told of a delivery not answered 200: never the URL secret, never the body. */
export interface WebhookErrorInfo {
  /** The status the delivery was answered with. */
  status: number;
  /** Why, as a code. */
  reason: WebhookRefusalReason;
  /** The sender's address as the handler determined it, when known. */
  sourceAddress: string | undefined;
}

/** Why each refusal was answered as it was: read by the handler's reporter, and by its tracing. */
export const refusals = new WeakMap<Response, { reason: WebhookRefusalReason; error: Error }>();

/** An answer other than 200, with the reason and error `onError` is told. */
export function refuse(status: number, text: string, reason: WebhookRefusalReason, error: Error, headers?: Record<string, string>): Response {
  const response = answer(status, text, headers);
  refusals.set(response, { reason, error });
  return response;
}

export function inProgress(): Response {
  return refuse(409, 'this delivery is still being handled', 'in_progress', new Error('the first delivery is still being handled'));
}

/**
 * Tells `onError` (never awaited, its failures ignored) or, without it, the logger (one
 * `warn` line) of a delivery not answered 200. Neither hears the URL secret or the body.
 */
export function refusalReporter(onError: ((error: Error, info: WebhookErrorInfo) => void) | undefined, logger: Pick<Logger, 'warn'>) {
  return (response: Response, sourceAddress: () => string | undefined) => {
    const refusal = refusals.get(response);
    if (refusal === undefined) return;
    const info: WebhookErrorInfo = { status: response.status, reason: refusal.reason, sourceAddress: printable(sourceAddress()) };
    try {
      if (onError === undefined) {
        // A redelivery while the first is handled is no failure (several instances see it often).
        if (refusal.reason === 'in_progress') return;
        logger.warn?.(`emporio: webhook delivery answered ${info.status} (${info.reason}): ${refusal.error.message}`, {
          ...info,
          ...(refusal.reason === 'handler_failed' ? { error: refusal.error } : {}),
        });
        return;
      }
      const outcome: unknown = onError(refusal.error, info);
      if (outcome instanceof Promise) outcome.catch(() => {});
    } catch {
      // A reporter that throws never changes the answer.
    }
  };
}

export function answer(status: number, text: string, headers?: Record<string, string>): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/**
 * Refused requests' bodies are not read. The cancel is not awaited: on some runtimes it settles only
 * once the body has arrived or never (edge-runtime, Vercel's edge functions), and the answer need not wait.
 */
export async function discard(request: Request): Promise<void> {
  if (request.body !== null && !request.bodyUsed) void request.body.cancel().catch(() => {});
}
