/**
 * The marketplace's order notifier (the webhook documentation): POSTs each event to every registered
 * URL (as registered: a secret in its path or query goes along) with the service's headers,
 * following redirects with the same POST; any final answer other than 200, a time-out or a
 * network error is a failure, retried until 4 attempts in total; deliveries of one order to
 * one URL stay in order. The returns webhook is a second sender of the same kind, for returns.
 */
import type { MockReturnEvent, MockWebhookEvent } from '../types.js';
import { readLimited } from '../../webhooks/read-limited.js';
import { brandName } from '../wire.js';

/** One attempt to deliver an event to a URL. */
export interface DeliveryAttempt {
  url: string;
  event_type: string;
  event_time: string;
  /** 1 for the first try, up to `maxAttempts`. */
  attempt: number;
  /** The receiver's HTTP status, when it answered. */
  status?: number | undefined;
  /** Why no status: the attempt timed out or the connection failed. */
  error?: 'timeout' | 'network' | undefined;
  ok: boolean;
  /** A manual send from the panel (`mock.orders.resend`). */
  resend: boolean;
  /** Wall-clock time of the attempt (epoch ms). */
  at: number;
}

/** An attempt to deliver an order event. */
export interface WebhookDelivery extends DeliveryAttempt {
  order_code: string;
}

/** An attempt to deliver a returns webhook event. */
export interface ReturnWebhookDelivery extends DeliveryAttempt {
  return_code: string;
}

/** What a sender sends: which resource an event is about (deliveries of one resource to one URL stay in order). */
interface Subject<E, D extends DeliveryAttempt> {
  key(event: E): string;
  /** The members a delivery record adds to the attempt's. */
  describe(event: E): Omit<D, keyof DeliveryAttempt>;
}

const ORDER_EVENTS: Subject<MockWebhookEvent, WebhookDelivery> = {
  key: (event) => event.order.code,
  describe: (event) => ({ order_code: event.order.code }),
};

export const RETURN_EVENTS: Subject<MockReturnEvent, ReturnWebhookDelivery> = {
  key: (event) => event.return.return_code,
  describe: (event) => ({ return_code: event.return.return_code }),
};

export interface WebhookSenderOptions {
  vendor: string;
  /** Wait between attempts; the service spreads 4 attempts over about 20 minutes. */
  intervalMs: number;
  /** How long one attempt may take before it counts as a time-out. */
  timeoutMs: number;
  maxAttempts: number;
  fetch: typeof fetch;
}

interface Job<E> {
  url: string;
  body: string;
  event: E;
  resend: boolean;
}

/** What the sender reads of a receiver's answer body before it lets the connection go. */
const MAX_RECEIVER_ANSWER_BYTES = 64 * 1024;

/** The service follows a `Location` redirect when it delivers (the service's documentation today): the same POST, again. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Where a redirect answer sends the delivery, or undefined for any other answer. */
function redirectTarget(answer: Response, from: string): string | undefined {
  const location = REDIRECT_STATUSES.has(answer.status) ? answer.headers.get('location') : null;
  if (location === null) return undefined;
  try {
    const target = new URL(location, from);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A webhook URL as logs and the admin API show it. A secret may be spelled anywhere in the path or
 * query (short, percent-encoded, several segments), so no pattern guesses which part it is: the
 * path after its first segment (all of a one-segment path) and the whole query become `[redacted]`,
 * and userinfo and fragment are dropped. `https://shop.example/hooks/s3cret?k=v` shows as
 * `https://shop.example/hooks/[redacted]?[redacted]`.
 */
export function redactedWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '[a malformed URL]';
  }
  const segments = parsed.pathname.split('/').slice(1);
  const path = segments.join('') === '' ? parsed.pathname : segments.length > 1 ? `/${segments[0]}/[redacted]` : '/[redacted]';
  const origin = parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  return `${origin}${path}${parsed.search === '' ? '' : '?[redacted]'}`;
}

export function createWebhookSender<E extends { event_type: string; event_time: string } = MockWebhookEvent, D extends DeliveryAttempt = WebhookDelivery>(
  options: WebhookSenderOptions,
  subject: Subject<E, D> = ORDER_EVENTS as unknown as Subject<E, D>,
) {
  const urls = new Set<string>();
  const deliveries: D[] = [];
  const latestByOrder = new Map<string, { event: E; body: string }>();
  const deliveryListeners = new Set<(delivery: D) => void>();
  /** Tail of the delivery chain per URL and order: later events wait for earlier ones. */
  const chains = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  const timers = new Set<{ timer: ReturnType<typeof setTimeout>; wake: () => void }>();
  let stopped = false;
  const userAgent = `${brandName(options.vendor)} OrderNotifier v1`;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          timers.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      timers.add(entry);
    });

  const attempt = async (job: Job<E>, number: number): Promise<boolean> => {
    const record = {
      url: job.url,
      event_type: job.event.event_type,
      ...subject.describe(job.event),
      event_time: job.event.event_time,
      attempt: number,
      ok: false,
      resend: job.resend,
      at: Date.now(),
    } as D;
    try {
      // One time-out for the attempt, redirects included.
      const signal = AbortSignal.timeout(options.timeoutMs);
      let url = job.url;
      for (let hop = 0; ; hop++) {
        const answer = await options.fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'User-Agent': userAgent },
          body: job.body,
          redirect: 'manual',
          signal,
        });
        // Only the status counts; a receiver's long answer is read no further than a bound.
        await readLimited(answer, MAX_RECEIVER_ANSWER_BYTES).catch(() => undefined);
        const next = hop < MAX_REDIRECTS ? redirectTarget(answer, url) : undefined;
        if (next === undefined) {
          record.status = answer.status;
          record.ok = answer.status === 200;
          break;
        }
        url = next;
      }
    } catch (error) {
      record.error = (error as Error)?.name === 'TimeoutError' ? 'timeout' : 'network';
    }
    deliveries.push(record);
    for (const listener of deliveryListeners) {
      try {
        listener(record);
      } catch {
        // A listener's failure is its own: the delivery went as it went.
      }
    }
    return record.ok;
  };

  const deliver = async (job: Job<E>) => {
    for (let number = 1; number <= options.maxAttempts && !stopped; number++) {
      if (number > 1) await sleep(options.intervalMs);
      if (stopped) return;
      if (await attempt(job, number)) return;
    }
  };

  const enqueue = (job: Job<E>) => {
    const key = `${job.url}\n${subject.key(job.event)}`;
    const run = (chains.get(key) ?? Promise.resolve()).then(() => deliver(job));
    chains.set(key, run);
    pending.add(run);
    void run.finally(() => {
      pending.delete(run);
      if (chains.get(key) === run) chains.delete(key);
    });
  };

  return {
    deliveries: deliveries as readonly D[],
    register(url: string): void {
      // A malformed URL or another scheme (file:, gopher:) is refused at registration, not at delivery.
      const { protocol } = new URL(url);
      if (protocol !== 'http:' && protocol !== 'https:') throw new TypeError(`a webhook URL is http: or https:, not ${protocol}`);
      urls.add(url);
    },
    unregister(url: string): void {
      urls.delete(url);
    },
    get urls(): string[] {
      return [...urls];
    },
    /** Called for every emitted event: to every registered URL, or to those of `to` still registered. */
    send(event: E, to?: Iterable<string>): void {
      const body = JSON.stringify(event);
      latestByOrder.set(subject.key(event), { event, body });
      if (stopped) return;
      const targets = to === undefined ? urls : [...to].filter((url) => urls.has(url));
      for (const url of targets) enqueue({ url, body, event, resend: false });
    },
    /** The latest event of an order again, byte for byte. */
    resend(code: string): boolean {
      const latest = latestByOrder.get(code);
      if (!latest || stopped) return false;
      for (const url of urls) enqueue({ url, body: latest.body, event: latest.event, resend: true });
      return true;
    },
    /** Calls `listener` after every delivery attempt (each retry too); returns the unsubscribe function. */
    onDelivery(listener: (delivery: D) => void): () => void {
      deliveryListeners.add(listener);
      return () => deliveryListeners.delete(listener);
    },
    /** Resolves when every delivery, retries included, has finished. */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    /** Stops sending: waiting retries are dropped. */
    stop(): void {
      stopped = true;
      for (const entry of timers) {
        clearTimeout(entry.timer);
        entry.wake();
      }
      timers.clear();
    },
  };
}

export type WebhookSender<E extends { event_type: string; event_time: string } = MockWebhookEvent, D extends DeliveryAttempt = WebhookDelivery> = ReturnType<
  typeof createWebhookSender<E, D>
>;
