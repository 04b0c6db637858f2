import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, type WebhookDedupeStore, type WebhookEvent, type WebhookHandlerOptions } from 'emporio/webhooks';
import { newOrderBody, orderUpdatedBody } from './events.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const SERVICE = '185.6.76.10'; // inside the documented 185.6.76.0/22
const STRANGER = '203.0.113.9';
const URL_ = 'https://shop.example/webhooks/orders';

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'marketplace OrderNotifier v1', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

function setup(options: Partial<WebhookHandlerOptions> = {}) {
  const events: WebhookEvent[] = [];
  const handler = createWebhookHandler({ urlSecret: false, logger, onEvent: (event) => void events.push(event), ...options });
  return { events, handler };
}

const body = JSON.stringify(newOrderBody());

afterEach(() => {
  vi.useRealTimers();
});

describe('createWebhookHandler: answers', () => {
  it('200 for a valid delivery from a documented address; onEvent gets the typed event and its context', async () => {
    const seen: { type: string; source: string | undefined }[] = [];
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      onEvent: async (event, context) => {
        seen.push({ type: event.event_type, source: context.sourceAddress });
      },
    });
    const response = await handler(post(body), { remoteAddress: SERVICE });
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ type: 'new_order', source: SERVICE }]);
  });

  it('405 for anything but POST, with Allow', async () => {
    const { handler, events } = setup();
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD']) {
      const response = await handler(new Request(URL_, { method }), { remoteAddress: SERVICE });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect(events).toHaveLength(0);
  });

  it('403 for an address outside the ranges, and when the address is unknown', async () => {
    const { handler, events } = setup();
    expect((await handler(post(body), { remoteAddress: STRANGER })).status).toBe(403);
    expect((await handler(post(body))).status).toBe(403);
    expect((await handler(post(body), { remoteAddress: 'not an address' })).status).toBe(403);
    expect(events).toHaveLength(0);
    expect(warnings.slice(-3)).toEqual([
      `emporio: webhook delivery answered 403 (source_address): source address ${STRANGER} is not in allowedRanges {"status":403,"reason":"source_address","sourceAddress":"${STRANGER}"}`,
      'emporio: webhook delivery answered 403 (source_address): source address unknown (pass info.remoteAddress) is not in allowedRanges {"status":403,"reason":"source_address"}',
      expect.stringContaining('source address not?an?address is not in allowedRanges'),
    ]);
  });

  it('IPv4-mapped socket addresses (dual-stack servers) are matched as IPv4', async () => {
    const { handler } = setup();
    expect((await handler(post(body), { remoteAddress: `::ffff:${SERVICE}` })).status).toBe(200);
  });

  it('custom allowedRanges, and allowedRanges: false turns the check off', async () => {
    const custom = setup({ allowedRanges: ['192.0.2.0/24'] });
    expect((await custom.handler(post(body), { remoteAddress: '192.0.2.1' })).status).toBe(200);
    expect((await custom.handler(post(body), { remoteAddress: SERVICE })).status).toBe(403);
    const open = setup({ allowedRanges: false });
    expect((await open.handler(post(body))).status).toBe(200);
    expect(open.events).toHaveLength(1);
    // An empty list would refuse every delivery: false is how to turn the check off.
    expect(() => setup({ allowedRanges: [] })).toThrow(/allowedRanges is empty/);
  });

  it('400 for an unparseable body, with the reason', async () => {
    const { handler, events } = setup();
    const invalid = await handler(post('{"event_type":'), { remoteAddress: SERVICE });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toBe('body is not valid JSON');
    const empty = await handler(post(null), { remoteAddress: SERVICE });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toBe('empty body');
    const shape = await handler(post(JSON.stringify({ event_type: 'new_order', order: { customer: 'x' } })), {
      remoteAddress: SERVICE,
    });
    expect(shape.status).toBe(400);
    expect(await shape.text()).toBe('code is missing at $.order.code');
    expect(events).toHaveLength(0);
  });

  it('200 for a drifted order: onEvent gets it as sent, onDrift hears of each path once per handler', async () => {
    const reports: unknown[] = [];
    const { handler, events } = setup({ onDrift: (report) => reports.push(report) });
    const drifted = (code: string) => ({ event_type: 'new_order', order: { ...newOrderBody().order, code, gift_wrap: 'yes' } });
    for (const code of ['A', 'B']) {
      const response = await handler(post(JSON.stringify(drifted(code))), { remoteAddress: SERVICE });
      expect(response.status).toBe(200);
    }
    expect(events).toStrictEqual([drifted('A'), drifted('B')]);
    expect(reports).toEqual([{ api: 'webhook', method: 'POST', url: '', path: '$.order.gift_wrap', expected: 'boolean', received: 'string' }]);
    // Another handler has its own memory of what it reported.
    const other: unknown[] = [];
    const second = setup({ onDrift: (report) => other.push(report) });
    expect((await second.handler(post(JSON.stringify(drifted('C'))), { remoteAddress: SERVICE })).status).toBe(200);
    expect(other).toHaveLength(1);
  });

  it('strict: true answers 400 for drift (the service retries, then gives up)', async () => {
    const { handler, events } = setup({ strict: true });
    const response = await handler(post(JSON.stringify({ event_type: 'new_order', order: { code: 'A', custom: 5 } })), {
      remoteAddress: SERVICE,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('expected string | array, received number at $.order.custom');
    expect(events).toHaveLength(0);
    expect(() => setup({ strict: 'yes' as never })).toThrow(/strict must be true or false/);
    expect(() => setup({ onDrift: 'metrics' as never })).toThrow(/onDrift must be a function/);
  });

  it('413 from Content-Length, before reading', async () => {
    const { handler, events } = setup({ maxBodyBytes: 1000 });
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(600));
      },
    });
    const response = await handler(post(stream, { 'content-length': '5000' }), { remoteAddress: SERVICE });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own first pull
    expect(events).toHaveLength(0);
  });

  it('413 for a streamed body without Content-Length: reading stops once over the limit', async () => {
    const { handler, events } = setup({ maxBodyBytes: 64 * 1024 });
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 10_000) controller.close(); // bound: 160 MB if never stopped
        else controller.enqueue(new Uint8Array(16 * 1024).fill(32));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await handler(post(stream), { remoteAddress: SERVICE });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
    expect(cancelled).toBe(true);
    expect(events).toHaveLength(0);
  });

  it('a body at the limit is accepted', async () => {
    const { handler } = setup({ maxBodyBytes: new TextEncoder().encode(body).length });
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
  });

  it('500 when onEvent throws, without the error text; the redelivery gets another chance', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error('database down, password=hunter2');
      },
    });
    const first = await handler(post(body), { remoteAddress: SERVICE });
    expect(first.status).toBe(500);
    expect(await first.text()).not.toContain('hunter2');
    const retry = await handler(post(body), { remoteAddress: SERVICE });
    expect(retry.status).toBe(200);
    expect(calls).toBe(2);
    const again = await handler(post(body), { remoteAddress: SERVICE });
    expect(again.status).toBe(200);
    expect(calls).toBe(2);
  });

  it('a rejected promise from onEvent is a 500 too', async () => {
    const handler = createWebhookHandler({ urlSecret: false, logger, onEvent: async () => Promise.reject(new Error('nope')) });
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(500);
  });
});

describe('X-Forwarded-For and trustProxy', () => {
  const PROXY = '10.0.0.2';

  it('a spoofed X-Forwarded-For is ignored without trustProxy', async () => {
    const { handler, events } = setup();
    const response = await handler(post(body, { 'x-forwarded-for': SERVICE }), { remoteAddress: STRANGER });
    expect(response.status).toBe(403);
    expect(events).toHaveLength(0);
  });

  it('a hop count trusts that many proxies from the right', async () => {
    const one = setup({ trustProxy: 1 });
    expect((await one.handler(post(body, { 'x-forwarded-for': SERVICE }), { remoteAddress: PROXY })).status).toBe(200);
    // An attacker's own entry on the left is not what one trusted hop reports.
    expect((await one.handler(post(body, { 'x-forwarded-for': `${SERVICE}, ${STRANGER}` }), { remoteAddress: PROXY })).status).toBe(403);
    // No header: the socket's peer (the proxy) is the sender.
    expect((await one.handler(post(body), { remoteAddress: PROXY })).status).toBe(403);

    const two = setup({ trustProxy: 2 });
    expect(
      (await two.handler(post(body, { 'x-forwarded-for': `198.51.100.1, ${SERVICE}, 10.0.0.9` }), { remoteAddress: PROXY })).status,
    ).toBe(200);
    // Ports that some proxies append are dropped.
    expect((await one.handler(post(body, { 'x-forwarded-for': `${SERVICE}:51234` }), { remoteAddress: PROXY })).status).toBe(200);
    expect(
      (await one.handler(post(body, { 'x-forwarded-for': '[2a03:e40::7]:443' }), { remoteAddress: PROXY })).status,
    ).toBe(200);
  });

  it('a hop count needs no peer address: an edge function (Vercel) is told the sender by the platform only', async () => {
    const { handler, events } = setup({ trustProxy: 1, urlSecret: false });
    expect((await handler(post(body, { 'x-forwarded-for': SERVICE }))).status).toBe(200);
    expect((await handler(post(body, { 'x-forwarded-for': STRANGER }))).status).toBe(403);
    expect(events).toHaveLength(1);
    // A proxy list still needs the peer, to know the header came through a trusted proxy.
    expect((await setup({ trustProxy: ['10.0.0.0/8'], urlSecret: false }).handler(post(body, { 'x-forwarded-for': SERVICE }))).status).toBe(403);
  });

  it('a refused delivery is answered without waiting for its body to be cancelled (edge-runtime never settles the cancel)', async () => {
    const stuck = new ReadableStream({ pull: () => new Promise<void>(() => {}), cancel: () => new Promise<void>(() => {}) });
    const { handler, events } = setup({ urlSecret: 'the-right-secret-0123456789' });
    expect((await handler(post(stuck), { remoteAddress: SERVICE })).status).toBe(404);
    const source = setup({ urlSecret: false });
    expect((await source.handler(post(new ReadableStream({ cancel: () => new Promise<void>(() => {}) })), { remoteAddress: STRANGER })).status).toBe(403);
    expect([...events, ...source.events]).toHaveLength(0);
  });

  it('a proxy list walks the chain from the right while the hop is a trusted proxy', async () => {
    const { handler, events } = setup({ trustProxy: ['10.0.0.0/8'] });
    const through = (xff: string, remoteAddress = PROXY) =>
      handler(post(JSON.stringify({ ...newOrderBody(), n: xff + remoteAddress }), { 'x-forwarded-for': xff }), { remoteAddress });
    expect((await through(`${SERVICE}, 10.0.0.7`)).status).toBe(200);
    expect((await through(`${SERVICE},10.1.2.3, 10.0.0.7`)).status).toBe(200);
    // A forged entry left of the real sender does not matter...
    expect((await through(`${STRANGER}, ${SERVICE}, 10.0.0.7`)).status).toBe(200);
    // ...and a forged documented address left of a stranger does not help the stranger.
    expect((await through(`${SERVICE}, ${STRANGER}, 10.0.0.7`)).status).toBe(403);
    // The header counts only when the socket's peer is a trusted proxy.
    expect((await through(SERVICE, STRANGER)).status).toBe(403);
    expect(events).toHaveLength(3);
  });

  it('bad option values are a TypeError at creation', () => {
    const onEvent = () => {};
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, trustProxy: ['not a cidr'] })).toThrow(TypeError);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, trustProxy: -1 })).toThrow(TypeError);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, allowedRanges: ['10.0.0.0/40'] })).toThrow(/allowedRanges/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, dedupeTtlMs: -5 })).toThrow(/dedupeTtlMs/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, claimLeaseMs: 0 })).toThrow(/claimLeaseMs/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, claimLeaseMs: Number.NaN })).toThrow(/claimLeaseMs/);
    expect(() => createWebhookHandler({ urlSecret: false, logger, onEvent, dedupe: {} as WebhookDedupeStore })).toThrow(/dedupe/);
    expect(() => createWebhookHandler({} as WebhookHandlerOptions)).toThrow(/onEvent/);
  });
});

describe('redelivery deduplication', () => {
  it('the same body twice: onEvent once, both answered 200', async () => {
    const { handler, events } = setup();
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    const again = await handler(post(body), { remoteAddress: SERVICE });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('already handled');
    expect(events).toHaveLength(1);
  });

  it('two different changes of one order in the same second are two events', async () => {
    const { handler, events } = setup();
    const a = orderUpdatedBody();
    const b = { ...a, changes: { state: { old: 'accepted', new: 'cancelled' } } };
    await handler(post(JSON.stringify(a)), { remoteAddress: SERVICE });
    await handler(post(JSON.stringify(b)), { remoteAddress: SERVICE });
    expect(events).toHaveLength(2);
  });

  it('409 for a redelivery while the first is still being handled; the first then settles it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      onEvent: async () => {
        calls++;
        await gate;
      },
    });
    const first = handler(post(body), { remoteAddress: SERVICE });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await handler(post(body), { remoteAddress: SERVICE });
    expect(second.status).toBe(409);
    release();
    expect((await first).status).toBe(200);
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('two deliveries racing in the same tick: one handles, the other is 409', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      onEvent: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const answers = await Promise.all([handler(post(body), { remoteAddress: SERVICE }), handler(post(body), { remoteAddress: SERVICE })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(calls).toBe(1);
  });

  it('dedupe: false calls onEvent for every delivery', async () => {
    const { handler, events } = setup({ dedupe: false });
    await handler(post(body), { remoteAddress: SERVICE });
    await handler(post(body), { remoteAddress: SERVICE });
    expect(events).toHaveLength(2);
  });

  it('the default store forgets after dedupeTtlMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { handler, events } = setup({ dedupeTtlMs: 60_000 });
    await handler(post(body), { remoteAddress: SERVICE });
    vi.advanceTimersByTime(59_000);
    await handler(post(body), { remoteAddress: SERVICE });
    expect(events).toHaveLength(1);
    vi.advanceTimersByTime(2_000);
    await handler(post(body), { remoteAddress: SERVICE });
    expect(events).toHaveLength(2);
  });

  it('by default a handled delivery is remembered for 30 minutes, then forgotten', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // Date only: promises and crypto.subtle stay real
    const start = new Date('2026-04-01T12:00:00Z').getTime();
    vi.setSystemTime(start);
    const { handler, events } = setup();
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect(events).toHaveLength(1);

    vi.setSystemTime(start + 29 * 60_000);
    const within = await handler(post(body), { remoteAddress: SERVICE });
    expect(within.status).toBe(200);
    expect(await within.text()).toBe('already handled');
    expect(events).toHaveLength(1);

    vi.setSystemTime(start + 31 * 60_000);
    const after = await handler(post(body), { remoteAddress: SERVICE });
    expect(after.status).toBe(200);
    expect(await after.text()).toBe('ok');
    expect(events).toHaveLength(2);
  });

  it('the default store stays bounded', async () => {
    const { handler, events } = setup();
    const first = JSON.stringify({ ...newOrderBody(), n: -1 });
    await handler(post(first), { remoteAddress: SERVICE });
    for (let n = 0; n < 10_050; n++) {
      await handler(post(JSON.stringify({ event_type: 'ping', n })), { remoteAddress: SERVICE });
    }
    // The oldest entry was evicted, so its redelivery is handled again.
    await handler(post(first), { remoteAddress: SERVICE });
    expect(events.filter((e) => e.event_type === 'new_order')).toHaveLength(2);
  }, 60_000);

  it("a store without claim or renew: the claim is written again while onEvent outlasts its lease, and the handled mark is the last write", async () => {
    const data = new Map<string, { value: string; until: number }>();
    const shared: WebhookDedupeStore = {
      get: async (key) => {
        const entry = data.get(key);
        return entry && entry.until > Date.now() ? entry.value : undefined;
      },
      set: async (key, value, ttl) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a store a little slow to write
        data.set(key, { value, until: Date.now() + (ttl ?? 600_000) });
      },
      delete: async (key) => data.delete(key),
    };
    const slow = (events: string[]) => async (event: WebhookEvent) => {
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      events.push(event.event_type);
    };
    const [first, second] = [[] as string[], [] as string[]];
    const a = createWebhookHandler({ urlSecret: false, logger, allowedRanges: false, dedupe: shared, claimLeaseMs: 300, onEvent: slow(first) });
    const b = createWebhookHandler({ urlSecret: false, logger, allowedRanges: false, dedupe: shared, claimLeaseMs: 300, onEvent: slow(second) });
    const delivery = a(post(body));
    await new Promise((resolve) => setTimeout(resolve, 600)); // twice the lease
    expect((await b(post(body))).status).toBe(409);
    expect((await delivery).status).toBe(200);
    expect([...data.values()].map((entry) => entry.value)).toEqual(['handled']);
    await new Promise((resolve) => setTimeout(resolve, 400)); // past any claim's lease: the mark stands
    expect((await b(post(body))).status).toBe(200);
    expect([first, second]).toEqual([['new_order'], []]);
  });

  it('an async shared store (Keyv-like, with TTL) dedupes across handler instances', async () => {
    const calls: [string, ...unknown[]][] = [];
    const data = new Map<string, unknown>();
    const shared: WebhookDedupeStore = {
      get: async (key) => {
        calls.push(['get', key]);
        return data.get(key);
      },
      set: async (key, value, ttl) => {
        calls.push(['set', key, value, ttl]);
        data.set(key, value);
        return true;
      },
      delete: async (key) => {
        calls.push(['delete', key]);
        return data.delete(key);
      },
    };
    const a = setup({ dedupe: shared, dedupeTtlMs: 600_000 });
    const b = setup({ dedupe: shared, dedupeTtlMs: 600_000 });
    expect((await a.handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect((await b.handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect(a.events).toHaveLength(1);
    expect(b.events).toHaveLength(0);

    const key = calls[0]![1];
    expect(key).toMatch(/^emporio:webhook:[0-9a-f]{64}$/);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
    expect(key).toBe(`emporio:webhook:${Array.from(digest, (x) => x.toString(16).padStart(2, '0')).join('')}`);
    expect(calls.filter(([op]) => op === 'set')).toEqual([
      ['set', key, 'in-flight', 10_000], // the claim's lease (claimLeaseMs)
      ['set', key, 'handled', 600_000],
    ]);
  });

  it('a store that fails does not lose events (handled at least once)', async () => {
    const broken: WebhookDedupeStore = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => {
        throw new Error('redis down');
      },
      delete: () => Promise.reject(new Error('redis down')),
    };
    const { handler, events } = setup({ dedupe: broken });
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('a Map works as a store', async () => {
    const map = new Map<string, unknown>();
    const { handler, events } = setup({ dedupe: map as unknown as WebhookDedupeStore });
    await handler(post(body), { remoteAddress: SERVICE });
    await handler(post(body), { remoteAddress: SERVICE });
    expect(events).toHaveLength(1);
    expect([...map.values()]).toEqual(['handled']);
  });
});
