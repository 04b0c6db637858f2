/**
 * The webhook inbox: deliveries the handler accepted, kept until a worker (`processInbox`) has
 * handled them. The contract every store keeps ({@link WebhookInbox}), what the handler hands it,
 * and the one-process store (`createMemoryInbox`). The Redis store is `redisStores(...).inbox`.
 */
import { isReturnEvent } from './parse.js';
import type { WebhookEvent } from '../schemas/webhook.js';

/** One accepted delivery, as the webhook handler hands it to the inbox. */
export interface InboxDelivery {
  /** The delivery's dedupe key: a redelivery of the same event has the same one. */
  key: string;
  /**
   * The events of one sequence are handled one at a time, in order: `order:<code>` for order
   * events, `return:<return_code>` for return events, `event:<key>` for an event of neither.
   */
  sequence: string;
  event: WebhookEvent;
  /** The event's `event_time` in ms since the epoch (its arrival when it has none): the order within its sequence. */
  eventTime: number;
  /** When the handler accepted it, in ms since the epoch. */
  receivedAt: number;
  /** The delivery's URL, without the URL secret. */
  url: string;
  sourceAddress: string | undefined;
  /** The body as received (UTF-8 text). */
  body: string;
  /** The W3C `traceparent` of the delivery's span (with the handler's `tracer`): processing links to it. */
  traceparent?: string | undefined;
}

/** A delivery in the inbox, with its attempts so far. */
export interface InboxEntry extends InboxDelivery {
  /** Unique within the inbox; the dead letter keeps it. */
  id: string;
  /** How many times `onEvent` failed on it. */
  attempts: number;
  /** When the retry period started, in ms: its arrival, or the time a dead letter was put back. */
  retryFrom: number;
  lastError?: string | undefined;
  lastTriedAt?: number | undefined;
}

/** A sequence a worker holds, and its event due now. Held until released, completed to its end, or its lease lapses. */
export interface InboxClaim {
  sequence: string;
  worker: string;
  /** The store's handle of this hold: a claim taken over by another worker no longer matches it. */
  token: string;
  entry: InboxEntry;
}

/** A failed attempt, as the worker records it. */
export interface InboxFailure {
  error: string;
  attempts: number;
  triedAt: number;
  /** postpone: when the event is due again (the sequence waits until then). */
  retryAt: number;
}

/** An event given up on after its retry period: it waits here until retried or dropped. */
export interface DeadLetter {
  id: string;
  event: WebhookEvent;
  /** The last error's message. */
  error: string;
  attempts: number;
  firstSeenAt: Date;
  lastTriedAt: Date;
}

/**
 * Where accepted deliveries wait for `processInbox`. Implement it to keep them in another store;
 * each method's atomicity is what makes the guarantees hold across workers and processes.
 */
export interface WebhookInbox {
  /**
   * Adds the delivery unless one with its `key` is held or was completed recently: true when added.
   * Resolves only once the store holds it (the handler answers 200 then).
   */
  append(delivery: InboxDelivery): Promise<boolean>;
  /**
   * Up to `count` sequences with an event due, each now held by `worker` for `leaseMs`: first
   * those whose holder's lease lapsed, then the others in arrival order. A held sequence is never handed out twice.
   */
  claim(worker: string, count: number, leaseMs: number): Promise<InboxClaim[]>;
  /** Extends the hold by `leaseMs` from now; false when it was lost (taken over). */
  renew(claim: InboxClaim, leaseMs: number): Promise<boolean>;
  /**
   * Marks `claim.entry` handled (its key remembered as completed) and returns the sequence's next
   * event, still held; undefined when none is left (the hold ends) or the hold was lost (nothing changed).
   */
  complete(claim: InboxClaim): Promise<InboxEntry | undefined>;
  /** Records a failed attempt and lets the sequence go until `failure.retryAt`. */
  postpone(claim: InboxClaim, failure: InboxFailure): Promise<void>;
  /** Moves `claim.entry` to the dead letters; returns the sequence's next event, as `complete`. */
  bury(claim: InboxClaim, failure: InboxFailure): Promise<InboxEntry | undefined>;
  /** Lets the sequence go at once, its event not handled (a worker stopping). */
  release(claim: InboxClaim): Promise<void>;
  deadLetters(): Promise<DeadLetter[]>;
  /** Puts a dead letter back into its sequence, its retry period starting again: false when there is no such dead letter. */
  retry(id: string): Promise<boolean>;
  /** Removes a dead letter (its key remembered as completed): false when there is no such dead letter. */
  drop(id: string): Promise<boolean>;
}

/** How long a completed delivery's key is remembered: far past the service's 20 minutes of retries. */
export const COMPLETED_TTL_MS = 24 * 60 * 60 * 1000;

/** The delivery the handler appends for a parsed event. */
export function inboxDelivery(
  key: string,
  event: WebhookEvent,
  body: string,
  url: string,
  sourceAddress: string | undefined,
  traceparent: string | undefined,
): InboxDelivery {
  const receivedAt = Date.now();
  const returned = isReturnEvent(event);
  const code = returned ? event.return.return_code : event.order?.code;
  // Date.parse of a missing or unreadable time is NaN: then the arrival orders it.
  const time = Date.parse(event.event_time as string);
  return {
    key,
    sequence: typeof code === 'string' ? `${returned ? 'return' : 'order'}:${code}` : `event:${key}`,
    event,
    eventTime: time > 0 ? time : receivedAt,
    receivedAt,
    url,
    sourceAddress,
    body,
    ...(traceparent === undefined ? {} : { traceparent }),
  };
}

/** The dead letter an entry becomes. */
export function deadLetterOf(entry: InboxEntry): DeadLetter {
  return {
    id: entry.id,
    event: entry.event,
    error: entry.lastError ?? '',
    attempts: entry.attempts,
    firstSeenAt: new Date(entry.receivedAt),
    lastTriedAt: new Date(entry.lastTriedAt ?? entry.receivedAt),
  };
}

/** Sequence order: event time, then arrival (ids grow with arrival). */
function before(a: InboxEntry, b: InboxEntry): boolean {
  return a.eventTime !== b.eventTime ? a.eventTime < b.eventTime : Number(a.id) < Number(b.id);
}

interface MemorySequence {
  queue: InboxEntry[];
  holder?: { worker: string; token: string; until: number } | undefined;
  notBefore: number;
}

/**
 * An inbox in this process's memory: for tests and single-process apps that accept losing what
 * it holds when the process ends. Several `processInbox` loops may share it.
 */
export function createMemoryInbox(): WebhookInbox {
  const sequences = new Map<string, MemorySequence>();
  /** Keys held (undefined) or completed (until when). */
  const keys = new Map<string, number | undefined>();
  const dead = new Map<string, InboxEntry>();
  let lastId = 0;
  let lastToken = 0;

  const rememberCompleted = (key: string) => {
    const now = Date.now();
    keys.delete(key);
    keys.set(key, now + COMPLETED_TTL_MS);
    // Map order is insertion order: the oldest completed keys come first.
    for (const [old, until] of keys) {
      if (until === undefined || until > now) break;
      keys.delete(old);
    }
  };
  const insert = (entry: InboxEntry) => {
    let sequence = sequences.get(entry.sequence);
    if (sequence === undefined) {
      sequence = { queue: [], notBefore: 0 };
      sequences.set(entry.sequence, sequence);
    }
    const at = sequence.queue.findIndex((other) => before(entry, other));
    sequence.queue.splice(at === -1 ? sequence.queue.length : at, 0, entry);
  };
  const held = (claim: InboxClaim): MemorySequence | undefined => {
    const sequence = sequences.get(claim.sequence);
    return sequence?.holder?.token === claim.token ? sequence : undefined;
  };
  const remove = (sequence: MemorySequence, id: string) => {
    const at = sequence.queue.findIndex((entry) => entry.id === id);
    if (at !== -1) sequence.queue.splice(at, 1);
  };
  /** The sequence's next event, still held; undefined when none is left (the sequence is forgotten). */
  const next = (name: string, sequence: MemorySequence): InboxEntry | undefined => {
    const head = sequence.queue[0];
    if (head === undefined) sequences.delete(name);
    return head;
  };

  return {
    async append(delivery) {
      const until = keys.get(delivery.key);
      if (keys.has(delivery.key) && (until === undefined || until > Date.now())) return false;
      keys.set(delivery.key, undefined);
      insert({ ...delivery, id: String(++lastId), attempts: 0, retryFrom: delivery.receivedAt });
      return true;
    },
    async claim(worker, count, leaseMs) {
      const now = Date.now();
      const due: [string, MemorySequence][] = [];
      for (const entry of sequences) {
        const [, sequence] = entry;
        if (sequence.queue.length > 0 && sequence.notBefore <= now && (sequence.holder === undefined || sequence.holder.until <= now)) due.push(entry);
      }
      // Lapsed holds first (their event waits longest), then by arrival.
      const rank = ([, sequence]: [string, MemorySequence]) => (sequence.holder === undefined ? 1 : 0);
      due.sort((a, b) => rank(a) - rank(b) || Number(a[1].queue[0]?.id) - Number(b[1].queue[0]?.id));
      return due.slice(0, count).map(([name, sequence]) => {
        const token = String(++lastToken);
        sequence.holder = { worker, token, until: now + leaseMs };
        return { sequence: name, worker, token, entry: sequence.queue[0] as InboxEntry };
      });
    },
    async renew(claim, leaseMs) {
      const sequence = held(claim);
      if (sequence?.holder === undefined) return false;
      sequence.holder.until = Date.now() + leaseMs;
      return true;
    },
    async complete(claim) {
      const sequence = held(claim);
      if (sequence === undefined) return undefined;
      remove(sequence, claim.entry.id);
      rememberCompleted(claim.entry.key);
      return next(claim.sequence, sequence);
    },
    async postpone(claim, failure) {
      const sequence = held(claim);
      if (sequence === undefined) return;
      Object.assign(claim.entry, { attempts: failure.attempts, lastError: failure.error, lastTriedAt: failure.triedAt });
      sequence.notBefore = failure.retryAt;
      sequence.holder = undefined;
    },
    async bury(claim, failure) {
      const sequence = held(claim);
      if (sequence === undefined) return undefined;
      remove(sequence, claim.entry.id);
      dead.set(claim.entry.id, { ...claim.entry, attempts: failure.attempts, lastError: failure.error, lastTriedAt: failure.triedAt });
      return next(claim.sequence, sequence);
    },
    async release(claim) {
      const sequence = held(claim);
      if (sequence !== undefined) sequence.holder = undefined;
    },
    async deadLetters() {
      return [...dead.values()].map(deadLetterOf);
    },
    async retry(id) {
      const entry = dead.get(id);
      if (entry === undefined) return false;
      dead.delete(id);
      insert({ ...entry, attempts: 0, retryFrom: Date.now() });
      return true;
    },
    async drop(id) {
      const entry = dead.get(id);
      if (entry === undefined) return false;
      dead.delete(id);
      rememberCompleted(entry.key);
      return true;
    },
  };
}
