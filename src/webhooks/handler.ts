import type { WebhookEvent } from '../schemas/webhook.js';
import { type CompiledRanges, compileRanges, isAllowedSourceIp, WEBHOOK_SOURCE_RANGES } from './ip.js';
import { type DriftReport, reportOnce } from '../schemas/drift.js';
import { DEFAULT_MAX_BODY_BYTES, isReturnEvent, type ParseWebhookOptions, parseWebhook } from './parse.js';
import { createUrlSecretCheck, type UrlSecretOption } from './url-secret.js';
import { within } from '../core/time.js';
import { WebhookParseError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { readLimited } from './read-limited.js';

/**
 * Where handled deliveries are remembered. Methods may return values or promises, so a
 * `Map`-like object and a Keyv instance (`keyv.set(key, value, ttl)`) both fit, and
 * several app instances can share one Redis-backed store.
 */
export interface WebhookDedupeStore {
  get(key: string): unknown;
  set(key: string, value: string, ttlMs?: number): unknown;
  delete(key: string): unknown;
  /**
   * Atomic set-if-absent: resolves true when this call took the key (this instance
   * handles the delivery). With it, two instances sharing the store never both call
   * `onEvent` for one delivery; without it, get-then-set leaves a gap between them.
   */
  claim?: ((key: string, ttlMs: number) => unknown) | undefined;
  /**
   * Extends a claim this instance holds by `ttlMs` from now, while `onEvent` runs (only while the
   * key still marks a delivery in progress). Without it, the handler writes the claim again with `set`.
   */
  renew?: ((key: string, ttlMs: number) => unknown) | undefined;
}

export interface WebhookEventContext {
  /** The delivery's request (its body already read; with `urlSecret`, its URL without the secret). */
  request: Request;
  /** The address the delivery was accepted from, when known. */
  sourceAddress: string | undefined;
}

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
  | 'store_timeout';

/** What `onError` is told of a delivery not answered 200: never the URL secret, never the body. */
export interface WebhookErrorInfo {
  /** The status the delivery was answered with. */
  status: number;
  /** Why, as a code. */
  reason: WebhookRefusalReason;
  /** The sender's address as the handler determined it, when known. */
  sourceAddress: string | undefined;
}

export interface WebhookHandlerOptions {
  /** Called once per event; its promise is awaited before the answer. Throwing answers 500, so the service retries. */
  onEvent: (event: WebhookEvent, context: WebhookEventContext) => unknown;
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
   * Given but `undefined`, `null` or empty (an unset environment variable) is a `TypeError`
   * when the handler is made; `false` turns the check off.
   */
  urlSecret?: UrlSecretOption | false | undefined;
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
}

export type WebhookHandler = (request: Request, info?: { remoteAddress?: string | undefined }) => Promise<Response>;

const DEFAULT_DEDUPE_TTL_MS = 30 * 60 * 1000;
/**
 * How long a delivery in progress is marked in a shared store without renewal. Short, so a
 * process that dies mid-delivery blocks the service's retries only for seconds.
 */
const DEFAULT_CLAIM_LEASE_MS = 10_000;
const HANDLED = 'handled';
const IN_FLIGHT = 'in-flight';
/** Bound of the default store: enough for any realistic 30-minute burst. */
const MEMORY_STORE_LIMIT = 10_000;
const DEFAULT_HANDLER_TIMEOUT_MS = 10_000;
/** A bounded call that did not settle in time. */
const TIMED_OUT: unique symbol = Symbol('timed out');

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
 * order are two events (a return event: its return code, event type and event time).
 * A store with `claim` is claimed atomically; one without it is
 * read, then written. A failing store does not block deliveries: the event is handled
 * (at least once) rather than lost.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  if (typeof options?.onEvent !== 'function') throw new TypeError('createWebhookHandler: onEvent must be a function');
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
  const onEvent = options.onEvent;
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
      const why = `source address ${printable(sourceAddress) ?? 'unknown (pass info.remoteAddress)'} is not in allowedRanges`;
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
    const context: WebhookEventContext = { request: shown, sourceAddress };
    const handle = () => deliver(onEvent, event, context, timeoutMs);
    if (store === undefined) return handle();

    const key = `emporio:webhook:${await sha256Hex(dedupeIdentity(event) ?? bytes)}`;
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

  return async (request, info) => {
    const response = await handleDelivery(request, info);
    if (response.status !== 200) report(response, () => senderAddress(request, info?.remoteAddress, proxy));
    return response;
  };
}

/** `urlSecret` as given: absent or `false` is no check; given but unset (undefined, null, '') is a mistake. */
function urlSecretCheck(options: WebhookHandlerOptions) {
  if (!('urlSecret' in options) || options.urlSecret === false) return undefined;
  const secret: unknown = options.urlSecret;
  if (secret === undefined || secret === null || secret === '') {
    throw new TypeError(
      `createWebhookHandler: urlSecret is ${secret === '' ? 'empty' : String(secret)} (an unset environment variable?); pass urlSecret: false to turn the check off`,
    );
  }
  return createUrlSecretCheck(secret as UrlSecretOption);
}

/** An address as logs show it: a sender may write X-Forwarded-For, so only address characters, bounded. */
function printable(address: string | undefined): string | undefined {
  return address === undefined ? undefined : address.replace(/[^\w.:%[\]-]/g, '?').slice(0, 64);
}

/** Why each refusal was answered as it was: read once by the handler's reporter. */
const refusals = new WeakMap<Response, { reason: WebhookRefusalReason; error: Error }>();

/** An answer other than 200, with the reason and error `onError` is told. */
function refuse(status: number, text: string, reason: WebhookRefusalReason, error: Error, headers?: Record<string, string>): Response {
  const response = answer(status, text, headers);
  refusals.set(response, { reason, error });
  return response;
}

function inProgress(): Response {
  return refuse(409, 'this delivery is still being handled', 'in_progress', new Error('the first delivery is still being handled'));
}

/**
 * Tells `onError` (never awaited, its failures ignored) or, without it, the logger (one
 * `warn` line) of a delivery not answered 200. Neither hears the URL secret or the body.
 */
function refusalReporter(onError: WebhookHandlerOptions['onError'], logger: Pick<Logger, 'warn'>) {
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

/**
 * Takes the delivery in the store: true when this process handles it, HANDLED or
 * IN_FLIGHT when another did or does. A failing store counts as taken (at least once).
 */
async function claimDelivery(
  store: WebhookDedupeStore,
  key: string,
  ttlMs: number,
  timeoutMs: number,
): Promise<true | typeof HANDLED | typeof IN_FLIGHT | typeof TIMED_OUT> {
  if (typeof store.claim === 'function') {
    const won = await bounded(() => store.claim?.(key, ttlMs), timeoutMs);
    if (won === TIMED_OUT) return TIMED_OUT;
    if (won !== false) return true;
    const seen = await bounded(() => store.get(key), timeoutMs);
    if (seen === TIMED_OUT) return TIMED_OUT;
    return seen === HANDLED ? HANDLED : IN_FLIGHT;
  }
  const seen = await bounded(() => store.get(key), timeoutMs);
  if (seen === TIMED_OUT) return TIMED_OUT;
  if (seen === HANDLED || seen === IN_FLIGHT) return seen;
  return (await bounded(() => store.set(key, IN_FLIGHT, ttlMs), timeoutMs)) === TIMED_OUT ? TIMED_OUT : true;
}

/** Runs `handle` while renewing the delivery's claim every third of its lease, so only a crash lets it lapse. */
async function holdingLease<T>(store: WebhookDedupeStore, key: string, lease: number, timeoutMs: number, handle: () => Promise<T>): Promise<T> {
  const renew = () =>
    bounded(() => (typeof store.renew === 'function' ? store.renew(key, lease) : store.set(key, IN_FLIGHT, lease)), Math.min(timeoutMs, lease / 3));
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    renewing = renew();
  }, Math.max(1, lease / 3));
  try {
    return await handle();
  } finally {
    clearInterval(timer);
    // A renewal still under way must not land after the handled mark (a store without `renew` rewrites the claim).
    await renewing;
  }
}

async function deliver(
  onEvent: WebhookHandlerOptions['onEvent'],
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

function answer(status: number, text: string, headers?: Record<string, string>): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

function checkRanges(ranges: readonly string[], option: string): CompiledRanges {
  if (!Array.isArray(ranges)) throw new TypeError(`createWebhookHandler: ${option} must be an array of CIDR strings`);
  try {
    return compileRanges(ranges, true);
  } catch (error) {
    throw new TypeError(`createWebhookHandler: ${option}: ${(error as Error).message}`);
  }
}

/**
 * A store call bounded in time. A failing store never decides the answer (at least
 * once, not a lost event): its error reads as "nothing stored".
 */
async function bounded(call: () => unknown, timeoutMs: number): Promise<unknown> {
  try {
    return await within(Promise.resolve().then(call), timeoutMs, () => TIMED_OUT);
  } catch {
    return undefined;
  }
}

/** The sender: the socket's peer, or with `trustProxy` the first untrusted hop of X-Forwarded-For. */
export function senderAddress(request: Request, socketAddress: string | undefined, proxy: number | readonly string[] | undefined) {
  if (proxy === undefined || proxy === 0) return socketAddress;
  const header = request.headers.get('x-forwarded-for');
  const chain = header === null ? [] : header.split(',').map(hostOnly).filter((hop) => hop.length > 0);
  // A hop count needs no peer address: the peer is the first trusted proxy, whose address is not
  // used. So it works where the platform is the proxy and tells no peer (a Vercel edge function).
  if (typeof proxy === 'number') {
    // `proxy` hops are trusted: the socket's peer and the last proxy - 1 header entries.
    // A shorter chain skipped a proxy, so its leftmost entry may be the sender's own
    // writing (Express would use it): refused.
    return chain.length < proxy ? undefined : chain[chain.length - proxy];
  }
  if (socketAddress === undefined) return undefined;
  let address = socketAddress;
  for (let i = chain.length - 1; i >= 0 && isAllowedSourceIp(address, proxy); i--) address = chain[i]!;
  return address;
}

/** An X-Forwarded-For entry without the port some proxies append (`1.2.3.4:5678`, `[2a03:e40::1]:443`). */
function hostOnly(entry: string): string {
  const hop = entry.trim();
  if (hop.startsWith('[')) {
    const close = hop.indexOf(']');
    return close === -1 ? hop : hop.slice(0, close + 1);
  }
  const colon = hop.indexOf(':');
  return colon !== -1 && colon === hop.lastIndexOf(':') ? hop.slice(0, colon) : hop;
}

/**
 * Refused requests' bodies are not read. The cancel is not awaited: on some runtimes it settles only
 * once the body has arrived or never (edge-runtime, Vercel's edge functions), and the answer need not wait.
 */
async function discard(request: Request): Promise<void> {
  if (request.body !== null && !request.bodyUsed) void request.body.cancel().catch(() => {});
}

/** What makes a return event one delivery: its return, type and time (the body is not hashed). Undefined for other events. */
function dedupeIdentity(event: WebhookEvent): Uint8Array | undefined {
  if (!isReturnEvent(event) || typeof event.event_time !== 'string') return undefined;
  return new TextEncoder().encode(JSON.stringify(['return', event.return.return_code, event.event_type, event.event_time]));
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** In-memory store with expiry, bounded: the oldest entries go first when full. */
function memoryStore(): WebhookDedupeStore {
  const entries = new Map<string, { value: string; expires: number }>();
  const store: WebhookDedupeStore = {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, ttlMs = DEFAULT_DEDUPE_TTL_MS) {
      entries.delete(key); // re-insert at the end: Map order is insertion order
      entries.set(key, { value, expires: Date.now() + ttlMs });
      if (entries.size > MEMORY_STORE_LIMIT) {
        const now = Date.now();
        for (const [oldKey, entry] of entries) {
          if (entries.size <= MEMORY_STORE_LIMIT && entry.expires > now) break;
          entries.delete(oldKey);
        }
      }
    },
    delete(key) {
      entries.delete(key);
    },
    claim(key, ttlMs) {
      if (store.get(key) !== undefined) return false;
      store.set(key, IN_FLIGHT, ttlMs);
      return true;
    },
    renew(key, ttlMs) {
      if (store.get(key) === IN_FLIGHT) store.set(key, IN_FLIGHT, ttlMs);
    },
  };
  return store;
}
