import type { WebhookEvent } from '../schemas/webhook.js';
import { isAllowedSourceIp, WEBHOOK_SOURCE_RANGES } from './ip.js';
import { type DriftReport, reportOnce } from '../schemas/drift.js';
import { DEFAULT_MAX_BODY_BYTES, type ParseWebhookOptions, parseWebhook } from './parse.js';
import { createUrlSecretCheck, type UrlSecretOption } from './url-secret.js';
import { within } from '../core/time.js';
import { WebhookParseError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { readLimited } from './read-limited.js';
import { inboxDelivery, type WebhookInbox } from './inbox.js';
import type { OpenTelemetryTracer } from '../core/otel-types.js';
import {
  bounded,
  claimDelivery,
  DEFAULT_CLAIM_LEASE_MS,
  DEFAULT_DEDUPE_TTL_MS,
  dedupeIdentity,
  HANDLED,
  holdingLease,
  IN_FLIGHT,
  memoryStore,
  sha256Hex,
  TIMED_OUT,
  type WebhookDedupeStore,
} from './dedupe.js';
import { answer, discard, inProgress, refusalReporter, refusals, refuse, type WebhookErrorInfo } from './refusals.js';
import { checkRanges, isLoopback, MOCK_DELIVERIES_HINT, printable, senderAddress } from './sender.js';

export type { WebhookDedupeStore } from './dedupe.js';
export type { WebhookErrorInfo, WebhookRefusalReason } from './refusals.js';
export { senderAddress } from './sender.js';

export interface WebhookEventContext {
  /** The delivery's request (its body already read; with `urlSecret`, its URL without the secret). */
  request: Request;
  /** The address the delivery was accepted from, when known. */
  sourceAddress: string | undefined;
  /** `processInbox` only: 1 on the event's first try, then 2, 3, ... */
  attempt?: number | undefined;
}

export interface WebhookHandlerOptions {
  /**
   * Called once per event; its promise is awaited before the answer. Throwing answers 500, so the
   * service retries. Not with `inbox`.
   */
  onEvent?: ((event: WebhookEvent, context: WebhookEventContext) => unknown) | undefined;
  /**
   * Instead of `onEvent`: each delivery that passes the checks is appended to this inbox and
   * answered 200 once the inbox holds it, before any business logic runs (a redelivery of an event
   * it holds or completed is answered 200 and not appended again); `processInbox` hands the events
   * to your code, retrying them for as long as you choose. Its failure answers 500 (the service retries).
   */
  inbox?: WebhookInbox | undefined;
  /** CIDR ranges deliveries may come from (default {@link WEBHOOK_SOURCE_RANGES}); `false` turns the check off. */
  allowedRanges?: readonly string[] | false | undefined;
  /**
   * Use `X-Forwarded-For` to find the sender, for a server behind proxies: a hop count
   * (how many proxies sit in front, counting the socket's peer), or the CIDRs of trusted
   * proxies (the chain is walked from the right while the hop is a trusted proxy).
   * With a hop count, a chain with fewer entries than hops is refused (403): it did not
   * come through every proxy, so its leftmost entry may be the sender's own writing.
   * Off by default: anyone can write that header.
   */
  trustProxy?: number | readonly string[] | undefined;
  /** Store for redelivery deduplication (default in-memory); `false` turns deduplication off. */
  dedupe?: WebhookDedupeStore | false | undefined;
  /**
   * How long a handled delivery is remembered after `onEvent` returned. Default 30 minutes (the
   * service retries within about 20): a shorter one lets a later retry be handled again. It has
   * no bearing on a delivery in progress, which the claim's lease holds however long `onEvent` runs.
   */
  dedupeTtlMs?: number | undefined;
  /**
   * How long a delivery's claim stands without being renewed, in ms (default 10 000). It is
   * renewed every third of it while `onEvent` runs, so a process that crashes mid-delivery
   * frees the delivery within this time and the service's next retry is handled elsewhere.
   */
  claimLeaseMs?: number | undefined;
  /** Larger bodies are answered 413 without being read in full. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * The longest each dedupe-store call and `onEvent` may take, in ms (default 10 000).
   * Past it the delivery is answered 500 and its claim released, so the service's
   * retry gets another chance instead of a 409 for ever.
   */
  handlerTimeoutMs?: number | undefined;
  /**
   * The secret in the URL registered in the merchant panel (deliveries are unsigned):
   * `https://shop.example/webhooks/<secret>` or `https://shop.example/webhooks?secret=<secret>`.
   * A list while rotating (old and new), then the new one alone. A request whose last path
   * segment or `secret` parameter is none of them is answered 404 before its body is read.
   * 16 to 256 characters of `A-Z a-z 0-9 - . _ ~`, e.g. `crypto.randomUUID()`.
   * Required: left out, or given but `undefined`, `null` or empty (an unset environment
   * variable), it is a `TypeError` when the handler is made; `false` turns the check off.
   * In tests against the mock marketplace: `mockDeliveryOptions(secret)` from `emporio/testing`.
   */
  urlSecret: UrlSecretOption | false | undefined;
  /**
   * Answer 400 to a delivery with drift (a member of another type than documented). Off by
   * default and best left off: the service retries a refused delivery a few times, then the
   * event is lost. A drifted order reaches `onEvent` as sent.
   */
  strict?: boolean | undefined;
  /** The service's vendor name (the client's `vendor`): see `parseWebhook`'s `vendor`. */
  vendor?: string | undefined;
  /** Told of each drifted member, once per schema path for this handler; the report carries no values. */
  onDrift?: ((report: DriftReport) => void) | undefined;
  /**
   * Called for every delivery not answered 200: a refused source address (403), a wrong URL
   * secret (404), an unreadable or refused body (400, 413), a throwing or timed-out `onEvent`
   * (500), a redelivery while the first is handled (409), not a POST (405). `error` is what
   * `onEvent` threw, a `WebhookParseError` for a body, or an `Error` saying what was refused.
   * Never awaited; what it throws is ignored. Without it, each such delivery but a 409 is one
   * `logger.warn` line.
   */
  onError?: ((error: Error, info: WebhookErrorInfo) => void) | undefined;
  /** Where the handler's warnings go (default `console`): one line per delivery not answered 200, without `onError`. */
  logger?: Pick<Logger, 'warn'> | undefined;
  /**
   * Your OpenTelemetry tracer (`trace.getTracer('my-shop')`): one server span per delivery, with its
   * event type, order or return code, the answer's status and a refusal's reason. See the tracing guide (docs/tracing.md).
   */
  tracer?: OpenTelemetryTracer | undefined;
}

export type WebhookHandler = (request: Request, info?: { remoteAddress?: string | undefined }) => Promise<Response>;
const DEFAULT_HANDLER_TIMEOUT_MS = 10_000;

/**
 * A handler for fetch runtimes (Bun, Deno, Hono, edge workers, Node via {@link toNodeHandler}):
 * checks the method and source address, reads the body within the size limit, parses it,
 * skips redeliveries of handled events, and awaits `onEvent`.
 *
 * Answers: 200 handled (or a redelivery of a handled event); 400 a body the SDK cannot use
 * (not JSON, no `event_type`, no order `code`; drift is not a reason: see `strict`);
 * 404 a URL without the `urlSecret` (before anything else); 403 refused source; 405 not
 * POST; 409 a redelivery while the first is still being handled; 413 body too large; 500
 * `onEvent` threw, or it or a store call took longer than `handlerTimeoutMs` (not marked
 * handled, so the retry gets another chance).
 *
 * Deduplication keys on the SHA-256 of the body bytes, so two different changes of one
 * order are two events (a return event: its return code, event type, event time and changes).
 * With `inbox`, the inbox deduplicates on the same keys and the event is answered 200 once stored.
 * A store with `claim` is claimed atomically; one without it is
 * read, then written. A failing store does not block deliveries: the event is handled
 * (at least once) rather than lost.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const inbox = options?.inbox;
  if (inbox !== undefined) {
    if (typeof inbox?.append !== 'function') throw new TypeError('createWebhookHandler: inbox must be a WebhookInbox');
    if (options.onEvent !== undefined) throw new TypeError('createWebhookHandler: give inbox or onEvent, not both');
  } else if (typeof options?.onEvent !== 'function') throw new TypeError('createWebhookHandler: onEvent must be a function');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new TypeError('createWebhookHandler: maxBodyBytes must be a positive integer');
  }
  const ttl = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!Number.isFinite(ttl) || ttl <= 0) throw new TypeError('createWebhookHandler: dedupeTtlMs must be a positive number');
  const ranges = options.allowedRanges === false ? undefined : (options.allowedRanges ?? WEBHOOK_SOURCE_RANGES);
  if (ranges !== undefined) checkRanges(ranges, 'allowedRanges');
  if (ranges?.length === 0) throw new TypeError('createWebhookHandler: allowedRanges is empty (false turns the check off)');
  const proxy = options.trustProxy;
  if (proxy !== undefined && !(Number.isSafeInteger(proxy) && (proxy as number) >= 0)) {
    checkRanges(proxy as readonly string[], 'trustProxy');
  }
  const store = options.dedupe === false ? undefined : (options.dedupe ?? memoryStore());
  if (store !== undefined && (typeof store.get !== 'function' || typeof store.set !== 'function' || typeof store.delete !== 'function')) {
    throw new TypeError('createWebhookHandler: dedupe must have get, set and delete methods, or be false');
  }
  if (store?.claim !== undefined && typeof store.claim !== 'function') {
    throw new TypeError('createWebhookHandler: dedupe.claim must be a function when present');
  }
  const timeoutMs = options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError('createWebhookHandler: handlerTimeoutMs must be a positive number');
  }
  const lease = options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  if (!Number.isFinite(lease) || lease <= 0) throw new TypeError('createWebhookHandler: claimLeaseMs must be a positive number');
  // A store the user passed may be shared by several processes (a Map cannot be).
  const logger = options.logger ?? console;
  if (typeof logger !== 'object' || logger === null) throw new TypeError('createWebhookHandler: logger must be an object with a warn method');
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new TypeError('createWebhookHandler: onError must be a function');
  }
  if (options.dedupe && store?.claim === undefined && !(store instanceof Map)) {
    logger.warn?.('emporio: a dedupe store without claim(key, ttlMs) is not safe to share between processes');
  }
  const onEvent = options.onEvent as NonNullable<WebhookHandlerOptions['onEvent']>;
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError('createWebhookHandler: strict must be true or false');
  }
  if (options.onDrift !== undefined && typeof options.onDrift !== 'function') {
    throw new TypeError('createWebhookHandler: onDrift must be a function');
  }
  if (options.vendor !== undefined && typeof options.vendor !== 'string') {
    throw new TypeError('createWebhookHandler: vendor must be a string');
  }
  const parseOptions: ParseWebhookOptions = { maxBodyBytes, strict: options.strict ?? false, vendor: options.vendor };
  const onDrift = options.onDrift;
  if (onDrift !== undefined) {
    // Each schema path once per handler: a drifted field arrives with every order.
    const reported = new Set<string>();
    parseOptions.onDrift = (report) => reportOnce([report], reported, onDrift);
  }
  const urlSecret = urlSecretCheck(options);
  // Deliveries this process is handling: claimed before any store call, so two deliveries
  // in one process never race on the store.
  const inFlight = new Set<string>();

  const report = refusalReporter(options.onError, logger);
  /** Each delivery's event, for its span (only with a tracer). */
  const parsed = options.tracer && new WeakMap<Request, WebhookEvent>();
  /** The tracing module, once loaded: the inbox keeps each delivery's span with its event. */
  let otel: typeof import('./otel.js') | undefined;
  const tooLarge = () => refuse(413, 'body too large', 'body_too_large', new WebhookParseError(`body is larger than ${maxBodyBytes} bytes`));

  const handleDelivery: WebhookHandler = async (request, info) => {
    // First of all: a request to any other URL learns nothing, not even that a receiver is here.
    const shown = urlSecret === undefined ? request : await urlSecret.admit(request);
    if (shown === undefined) {
      await discard(request);
      return refuse(404, 'not found', 'url_secret', new Error('URL without the urlSecret'));
    }
    if (request.method !== 'POST') {
      return refuse(405, 'method not allowed', 'method', new Error(`${request.method.slice(0, 16)} is not POST`), { allow: 'POST' });
    }

    const sourceAddress = senderAddress(request, info?.remoteAddress, proxy);
    if (ranges !== undefined && (sourceAddress === undefined || !isAllowedSourceIp(sourceAddress, ranges))) {
      await discard(request);
      const why = `source address ${printable(sourceAddress) ?? 'unknown (pass info.remoteAddress)'} is not in allowedRanges${
        options.allowedRanges === undefined && isLoopback(sourceAddress) ? MOCK_DELIVERIES_HINT : ''
      }`;
      return refuse(403, 'source address not allowed', 'source_address', new Error(why));
    }

    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBodyBytes) {
      await discard(request);
      return tooLarge();
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readLimited(request, maxBodyBytes);
    } catch (cause) {
      return refuse(400, 'body could not be read', 'body_unreadable', new WebhookParseError('body could not be read', [], { cause }));
    }
    if (bytes === undefined) return tooLarge();

    let event: WebhookEvent;
    try {
      event = parseWebhook(bytes, parseOptions);
    } catch (error) {
      return refuse(400, (error as Error).message, 'body_invalid', error as Error);
    }
    parsed?.set(request, event);
    const key = `emporio:webhook:${await sha256Hex(dedupeIdentity(event) ?? bytes)}`;
    if (inbox !== undefined) {
      const delivery = inboxDelivery(key, event, new TextDecoder().decode(bytes), shown.url, sourceAddress, otel?.deliveryTraceparent(request));
      const appended = await bounded(() => inbox.append(delivery), timeoutMs);
      if (typeof appended === 'boolean') return answer(200, appended ? 'ok' : 'already received');
      return refuse(500, 'not stored', 'inbox_failed', new Error('the inbox failed or timed out'));
    }
    const context: WebhookEventContext = { request: shown, sourceAddress };
    const handle = () => deliver(onEvent, event, context, timeoutMs);
    if (store === undefined) return handle();

    if (inFlight.has(key)) return inProgress();
    inFlight.add(key);
    const release = () => bounded(() => store.delete(key), timeoutMs);
    try {
      const claimed = await claimDelivery(store, key, lease, timeoutMs);
      if (claimed === TIMED_OUT) {
        await release();
        return refuse(500, 'timed out', 'store_timeout', new Error(`a dedupe store call took over handlerTimeoutMs (${timeoutMs} ms)`));
      }
      if (claimed === HANDLED) return answer(200, 'already handled');
      if (claimed === IN_FLIGHT) return inProgress();
      const response = await holdingLease(store, key, lease, timeoutMs, handle);
      // Marking is best effort, like every store call: the event was handled either way.
      if (response.status === 200) await bounded(() => store.set(key, HANDLED, ttl), timeoutMs);
      else await release();
      return response;
    } finally {
      inFlight.delete(key);
    }
  };

  const handle: WebhookHandler = async (request, info) => {
    const response = await handleDelivery(request, info);
    if (response.status !== 200) report(response, () => senderAddress(request, info?.remoteAddress, proxy));
    return response;
  };
  // The tracing code is loaded with the first delivery.
  const tracing =
    parsed &&
    import('./otel.js').then((loaded) => {
      otel = loaded;
      return loaded.traced(options.tracer as OpenTelemetryTracer, handle, parsed, refusals);
    });
  return tracing ? async (request, info) => (await tracing)(request, info) : handle;
}

/** `urlSecret` as given: `false` is no check; left out or unset (undefined, null, '') is a mistake, never a silent "no check". */
function urlSecretCheck(options: WebhookHandlerOptions) {
  if (options.urlSecret === false) return undefined;
  const secret: unknown = options.urlSecret;
  if (secret == null || secret === '') {
    throw new TypeError(
      'createWebhookHandler: urlSecret is missing or unset: pass the secret of the URL registered in the merchant panel, or urlSecret: false for no check',
    );
  }
  return createUrlSecretCheck(secret as UrlSecretOption);
}

async function deliver(
  onEvent: NonNullable<WebhookHandlerOptions['onEvent']>,
  event: WebhookEvent,
  context: WebhookEventContext,
  timeoutMs: number,
): Promise<Response> {
  let outcome: unknown;
  try {
    outcome = await within(Promise.resolve().then(() => onEvent(event, context)), timeoutMs, () => TIMED_OUT);
  } catch (thrown) {
    // The error's text stays out of the answer (it may hold the app's secrets); onError gets it.
    const error = thrown instanceof Error ? thrown : new Error('onEvent threw', { cause: thrown });
    return refuse(500, 'event handler failed', 'handler_failed', error);
  }
  if (outcome === TIMED_OUT) return refuse(500, 'timed out', 'handler_timeout', new Error(`onEvent took over handlerTimeoutMs (${timeoutMs} ms)`));
  return answer(200, 'ok');
}
