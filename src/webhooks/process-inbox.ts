/**
 * `processInbox`: the worker loop that hands the inbox's events to `onEvent`, one at a time per
 * order (or return), retried with backoff, then dead letters.
 */
import type { WebhookEvent } from '../schemas/webhook.js';
import type { Logger } from '../core/logger.js';
import { sleep } from '../core/time.js';
import type { OpenTelemetryTracer } from '../core/otel-types.js';
import type { WebhookEventContext } from './handler.js';
import type { InboxClaim, InboxEntry, InboxFailure, WebhookInbox } from './inbox.js';

export interface ProcessInboxOptions {
  inbox: WebhookInbox;
  /**
   * Called once per event, as the webhook handler's `onEvent` (with `context.attempt` set).
   * Throwing (or rejecting) retries the event later; the order's later events wait for it.
   */
  onEvent: (event: WebhookEvent, context: WebhookEventContext) => unknown;
  /** How many orders (or returns) are handled at once; one event at a time within each. Default 4. */
  concurrency?: number | undefined;
  /**
   * The wait before the first retry of a failed event, in ms (default 1000); it doubles with each
   * failure, up to 600 times this (10 minutes with the default).
   */
  retryDelayMs?: number | undefined;
  /** How long an event is retried after it arrived, in ms (default 24 hours); then it becomes a dead letter. */
  retryForMs?: number | undefined;
  /** Stops taking events; the promise settles once the events under way are finished. */
  signal?: AbortSignal | undefined;
  /**
   * How long an order stays held by this worker without renewal, in ms (default 30 000). It is
   * renewed every third of it while the worker runs, so another worker takes over an order
   * whose worker died within this time.
   */
  leaseMs?: number | undefined;
  /** The longest wait between two looks at an idle inbox, in ms (default 1000; it starts at 50 after work). */
  pollMs?: number | undefined;
  /**
   * Told of each failed attempt (`dead`: it became a dead letter). Without it, one `logger.warn`
   * line per failure. What it throws is ignored.
   */
  onError?: ((error: Error, info: { id: string; attempts: number; dead: boolean }) => void) | undefined;
  /** Where failures (without `onError`) and store outages are reported. Default `console`. */
  logger?: Pick<Logger, 'warn'> | undefined;
  /**
   * An OpenTelemetry `Tracer`: one CONSUMER span per attempt, active while `onEvent` runs and linked
   * to the span of the delivery that brought the event (when the handler had a `tracer` too).
   */
  tracer?: OpenTelemetryTracer | undefined;
}

const DEFAULT_RETRY_DELAY_MS = 1_000;
/** The longest wait between retries, in retry delays: 10 minutes with the default delay. */
const MAX_DELAY_FACTOR = 600;
const DEFAULT_RETRY_FOR_MS = 24 * 60 * 60 * 1000;
const DEFAULT_LEASE_MS = 30_000;
const FIRST_POLL_MS = 50;
const DEFAULT_POLL_MS = 1_000;
/** A failed store call is tried again after this, doubling up to the poll interval. */
const STORE_RETRY_MS = 100;
const MAX_ERROR_LENGTH = 2_000;

/**
 * Takes events from `inbox` and hands each to `onEvent` until `signal` aborts; resolves once the
 * events under way are finished (the order's next events stay in the inbox for the next worker).
 *
 * The events of one order (one return) are handled one at a time, in the order of their
 * `event_time`, then of their arrival, never two at once across workers and processes; other
 * orders' in parallel, up to `concurrency`. An event whose `onEvent` throws is retried after
 * `retryDelayMs`, doubling, until `retryForMs` after it arrived, then it is a dead letter
 * (`inbox.deadLetters()`) and the order's next event goes ahead. A worker that dies mid-event holds its
 * order for at most `leaseMs`: another worker then handles that event again. A store that fails
 * is tried again, and nothing is marked handled until it answers.
 */
export async function processInbox(options: ProcessInboxOptions): Promise<void> {
  const { inbox, onEvent, signal } = options;
  if (typeof inbox?.claim !== 'function' || typeof inbox.complete !== 'function') throw new TypeError('processInbox: inbox must be a WebhookInbox');
  if (typeof onEvent !== 'function') throw new TypeError('processInbox: onEvent must be a function');
  const concurrency = whole(options.concurrency, 4, 'concurrency');
  const retryDelayMs = whole(options.retryDelayMs, DEFAULT_RETRY_DELAY_MS, 'retryDelayMs');
  const retryForMs = whole(options.retryForMs, DEFAULT_RETRY_FOR_MS, 'retryForMs');
  const leaseMs = whole(options.leaseMs, DEFAULT_LEASE_MS, 'leaseMs');
  const pollMs = whole(options.pollMs, DEFAULT_POLL_MS, 'pollMs');
  const logger = options.logger ?? console;
  const worker = crypto.randomUUID();
  const { tracer } = options;
  // The tracing code is loaded only with a tracer.
  const tracing = tracer && import('./otel.js');

  let storeDown = false;
  /** A store call, tried again until it answers (reported once per outage); after `signal` aborts, for `patienceMs` at most. */
  const persist = async <T>(call: () => Promise<T>, onGiveUp: T, patienceMs = leaseMs): Promise<T> => {
    let wait = STORE_RETRY_MS;
    let stoppedAt: number | undefined;
    for (;;) {
      try {
        const result = await call();
        storeDown = false;
        return result;
      } catch (error) {
        if (!storeDown) logger.warn?.(`emporio: the webhook inbox failed (${(error as Error)?.message ?? error}); trying again`);
        storeDown = true;
        // Stopping, the worker waits no longer than its lease: another worker then takes the order over.
        if (signal?.aborted) {
          stoppedAt ??= Date.now();
          if (Date.now() + wait > stoppedAt + patienceMs) return onGiveUp;
        }
        await sleep(wait);
        wait = Math.min(wait * 2, pollMs);
      }
    }
  };

  const report = (error: Error, info: { id: string; attempts: number; dead: boolean }) => {
    try {
      if (options.onError) options.onError(error, info);
      else logger.warn?.(`emporio: inbox event ${info.id} failed (attempt ${info.attempts}${info.dead ? ', now a dead letter' : ''}): ${error.message}`);
    } catch {
      // A reporter that throws changes nothing.
    }
  };

  /** Runs onEvent for one entry: undefined when it succeeded, else what it threw. */
  const attempt = async (entry: InboxEntry): Promise<Error | undefined> => {
    const context: WebhookEventContext = {
      request: new Request(entry.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: entry.body }),
      sourceAddress: entry.sourceAddress,
      attempt: entry.attempts + 1,
    };
    try {
      const run = async () => onEvent(entry.event, context);
      await (tracing ? (await tracing).traceInboxEvent(tracer as OpenTelemetryTracer, entry.event, entry.traceparent, run) : run());
      return undefined;
    } catch (thrown) {
      return thrown instanceof Error ? thrown : new Error(String(thrown));
    }
  };

  /** Handles the held order's events until none is due, the hold is lost, or the worker stops. */
  const work = async (claim: InboxClaim): Promise<void> => {
    const renewal = setInterval(() => void inbox.renew(claim, leaseMs).catch(() => {}), leaseMs / 3);
    try {
      for (let entry: InboxEntry | undefined = claim.entry; entry !== undefined; ) {
        claim.entry = entry;
        const error = await attempt(entry);
        if (error === undefined) {
          entry = await persist(() => inbox.complete(claim), undefined);
        } else {
          const now = Date.now();
          const attempts = entry.attempts + 1;
          const deadline = entry.retryFrom + retryForMs;
          const failure: InboxFailure = {
            error: error.message.slice(0, MAX_ERROR_LENGTH),
            attempts,
            triedAt: now,
            retryAt: Math.min(now + Math.min(retryDelayMs * 2 ** (attempts - 1), retryDelayMs * MAX_DELAY_FACTOR), deadline),
          };
          const dead = now >= deadline;
          report(error, { id: entry.id, attempts, dead });
          if (dead) entry = await persist(() => inbox.bury(claim, failure), undefined);
          else {
            await persist(() => inbox.postpone(claim, failure), undefined);
            entry = undefined;
          }
        }
        if (entry !== undefined && signal?.aborted) {
          await persist(() => inbox.release(claim), undefined);
          entry = undefined;
        }
      }
    } finally {
      clearInterval(renewal);
    }
  };

  const running = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;
  let idleMs = FIRST_POLL_MS;
  while (!signal?.aborted) {
    const room = concurrency - running.size;
    let claims: InboxClaim[] = [];
    if (room > 0) {
      // Stopping, nothing new is taken: a failing claim is not waited for.
      claims = await persist(() => inbox.claim(worker, room, leaseMs), [], 0);
      for (const claim of claims) {
        const done: Promise<void> = work(claim).finally(() => {
          running.delete(done);
          slotFreed?.();
        });
        running.add(done);
      }
      if (claims.length > 0) idleMs = FIRST_POLL_MS;
      if (claims.length === room) continue;
    }
    // Nothing (more) due: look again after a while, at once when a slot frees up if none was free.
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        slotFreed = undefined;
        resolve();
      };
      const timer = setTimeout(wake, idleMs);
      signal?.addEventListener('abort', wake, { once: true });
      if (room === 0) slotFreed = wake;
    });
    if (room > 0 && claims.length === 0) idleMs = Math.min(idleMs * 2, pollMs);
  }
  await Promise.all(running);
}

function whole(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TypeError(`processInbox: ${option} must be a positive number`);
  return value;
}
