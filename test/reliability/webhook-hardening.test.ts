/**
 * Webhook deliveries under a hung store or handler, racing deliveries on a shared store,
 * and a forged X-Forwarded-For chain (issue 13, items 12-14).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, type WebhookDedupeStore, type WebhookHandlerOptions } from 'emporio/webhooks';
import { newOrderBody } from '../webhooks/events.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const SERVICE = '185.6.76.10'; // inside the documented 185.6.76.0/22
const PROXY = '10.0.0.2';
const body = JSON.stringify(newOrderBody());

function post(headers: Record<string, string> = {}): Request {
  return new Request('https://shop.example/webhooks/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => {});

/** The answer, or 'hung' when none came within `ms` (keeps a hanging handler from hanging the suite). */
async function answerWithin(response: Promise<Response>, ms = 2_000): Promise<number | 'hung'> {
  const late = sleep(ms).then(() => 'hung' as const);
  const first = await Promise.race([response, late]);
  return first === 'hung' ? first : first.status;
}

/** A Keyv-like async store over a Map: each call sees the data as it was when called, after `delayMs`. */
function slowStore(delayMs: (op: string) => number, withClaim: boolean) {
  const data = new Map<string, unknown>();
  const store: WebhookDedupeStore = {
    get: async (key) => {
      const value = data.get(key);
      await sleep(delayMs('get'));
      return value;
    },
    set: async (key, value) => {
      await sleep(delayMs('set'));
      data.set(key, value);
    },
    delete: async (key) => {
      await sleep(delayMs('delete'));
      data.delete(key);
    },
  };
  if (withClaim) {
    store.claim = async (key) => {
      const won = !data.has(key);
      if (won) data.set(key, 'in-flight');
      await sleep(delayMs('claim'));
      return won;
    };
  }
  return store;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('handlerTimeoutMs bounds onEvent and every store call (item 12)', () => {
  it('a bound longer than a timer can hold (over 24.8 days) is kept, not fired at once', async () => {
    const handler = createWebhookHandler({ urlSecret: false, logger, handlerTimeoutMs: 3_000_000_000, onEvent: () => new Promise((resolve) => setTimeout(resolve, 20)) });
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(200);
  });

  it('a hung onEvent is answered 500 in time, and the redelivery is handled, not 409 for ever', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      handlerTimeoutMs: 100,
      onEvent: () => {
        calls++;
        return calls === 1 ? never() : undefined;
      },
    });
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(500);
    expect(warnings.at(-1)).toContain('answered 500 (handler_timeout)');
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(200);
    expect(calls).toBe(2);
  });

  it('a store whose get never answers: 500 in time, onEvent not called, then a working store call handles it', async () => {
    let hang = true;
    const data = new Map<string, unknown>();
    const store: WebhookDedupeStore = {
      get: (key) => (hang ? never() : data.get(key)),
      set: (key, value) => void data.set(key, value),
      delete: (key) => void data.delete(key),
    };
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const calls: string[] = [];
    const handler = createWebhookHandler({ urlSecret: false, logger, handlerTimeoutMs: 100, dedupe: store, onEvent: (e) => void calls.push(e.event_type) });
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(500);
    expect(calls).toEqual([]);
    hang = false;
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(200);
    expect(calls).toEqual(['new_order']);
  });

  it('a claim that never answers is bounded too', async () => {
    const store: WebhookDedupeStore = { get: () => undefined, set: () => {}, delete: () => {}, claim: never };
    const handler = createWebhookHandler({ urlSecret: false, logger, handlerTimeoutMs: 100, dedupe: store, onEvent: () => {} });
    expect(await answerWithin(handler(post(), { remoteAddress: SERVICE }))).toBe(500);
  });

  it('handlerTimeoutMs must be a positive number', () => {
    const onEvent = () => {};
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, handlerTimeoutMs: 0 })).toThrow(/handlerTimeoutMs/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, handlerTimeoutMs: Number.NaN })).toThrow(/handlerTimeoutMs/);
  });
});

describe('one delivery, one onEvent (item 13)', () => {
  it('one handler, a slow store answering stale reads: two copies of a delivery run onEvent once', async () => {
    // The second read is slow and answers what the store held when it was asked.
    let reads = 0;
    const store = slowStore((op) => (op === 'get' ? (++reads === 1 ? 1 : 60) : 1), false);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let calls = 0;
    const handler = createWebhookHandler({ urlSecret: false, logger, dedupe: store, onEvent: () => void calls++ });
    const answers = await Promise.all([handler(post(), { remoteAddress: SERVICE }), handler(post(), { remoteAddress: SERVICE })]);
    expect(calls).toBe(1);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('two handlers (two instances) sharing a store with claim: onEvent once, in every run', async () => {
    for (let run = 0; run < 10; run++) {
      const store = slowStore(() => 1 + (run % 3), true);
      let calls = 0;
      const options: WebhookHandlerOptions = { urlSecret: false, logger, dedupe: store, onEvent: () => void calls++ };
      const a = createWebhookHandler(options);
      const b = createWebhookHandler(options);
      const answers = await Promise.all([a(post(), { remoteAddress: SERVICE }), b(post(), { remoteAddress: SERVICE })]);
      expect(calls).toBe(1);
      // The other copy is "still being handled" (409), or, on a slow machine, already handled.
      const texts = await Promise.all(answers.map(async (r) => `${r.status} ${await r.text()}`));
      expect(texts).toContain('200 ok');
      expect(texts.filter((text) => text !== '200 ok')).toEqual([expect.stringMatching(/^(409 this delivery is still being handled|200 already handled)$/)]);
      // After the first is done, a redelivery is "already handled".
      const later = await b(post(), { remoteAddress: SERVICE });
      expect([later.status, await later.text()]).toEqual([200, 'already handled']);
    }
  });

  it('a failed onEvent releases the claim, so the retry runs it again', async () => {
    const store = slowStore(() => 1, true);
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      dedupe: store,
      onEvent: () => {
        if (++calls === 1) throw new Error('database down');
      },
    });
    expect((await handler(post(), { remoteAddress: SERVICE })).status).toBe(500);
    expect((await handler(post(), { remoteAddress: SERVICE })).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('a user store without claim is warned about once, when the handler is made; a store with claim, a Map and the default are not', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onEvent = () => {};
    createWebhookHandler({ urlSecret: false, onEvent });
    createWebhookHandler({ urlSecret: false, onEvent, dedupe: new Map() as unknown as WebhookDedupeStore });
    createWebhookHandler({ urlSecret: false, onEvent, dedupe: slowStore(() => 0, true) });
    expect(warn).not.toHaveBeenCalled();
    const handler = createWebhookHandler({ urlSecret: false, onEvent, dedupe: slowStore(() => 0, false) });
    await handler(post(), { remoteAddress: SERVICE });
    await handler(post(), { remoteAddress: SERVICE });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/claim\(key, ttlMs\).*not safe to share/);
  });
});

describe('trustProxy as a hop count (item 14)', () => {
  it('a chain shorter than the hop count is refused, not read from its client-written left end', async () => {
    let calls = 0;
    const handler = createWebhookHandler({ urlSecret: false, logger, trustProxy: 2, onEvent: () => void calls++ });
    // Two proxies append two entries; one entry means a proxy was skipped and the
    // sender wrote the header itself.
    expect((await handler(post({ 'x-forwarded-for': SERVICE }), { remoteAddress: PROXY })).status).toBe(403);
    expect((await handler(post(), { remoteAddress: PROXY })).status).toBe(403);
    expect(calls).toBe(0);
    expect((await handler(post({ 'x-forwarded-for': `${SERVICE}, 10.0.0.9` }), { remoteAddress: PROXY })).status).toBe(200);
    expect(calls).toBe(1);
  });
});
