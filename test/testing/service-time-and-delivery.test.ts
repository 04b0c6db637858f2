/**
 * The kit as the real service (spec/4 section 9): every time stamp in Athens time with its offset,
 * deliveries to a URL that carries a secret, and `Location` redirects followed when delivering.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketplaceClient } from 'emporio';
import { createMockMarketplace, type MockMarketplace, startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler, type WebhookEvent, type WebhookHandler } from 'emporio/webhooks';

const SECRET = 'kit-delivery-5e0d2b7c-91aa-4f3e-b6d1';
const mocks: MockMarketplace[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) mock.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function newMock(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  const mock = createMockMarketplace({ webhookIntervalMs: 5, ...options });
  mocks.push(mock);
  return mock;
}

/** Every string in `value` that looks like a date-time. */
function timeStamps(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) timeStamps(item, found);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) timeStamps(item, found);
  return found;
}

/** Athens wall time of `ms` as the tz database has it, `YYYY-MM-DDTHH:MM:SS`. */
function athensWallTime(ms: number): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Athens',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

describe('the kit writes the service time: Athens with its offset', () => {
  it.each([
    ['winter', Date.UTC(2026, 0, 15, 10, 30, 0), '2026-01-15T12:30:00+02:00'],
    ['summer', Date.UTC(2026, 6, 15, 10, 30, 0), '2026-07-15T13:30:00+03:00'],
  ])('%s: orders, webhook events, FBS, CPS, catalog and account answers, never Z or +00:00', async (_season, now, created) => {
    const mock = newMock({ clock: () => now });
    const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, tokens: mock.tokens, fetch: mock.fetch });
    const placed = mock.orders.create();
    const order = await client.orders.get(placed.code);
    expect(order.created_at).toBe(created);
    expect(Date.parse(order.created_at as string)).toBe(now); // the offset keeps the instant
    await client.orders.accept(placed.code, { pickup_location: 'LOC-1', pickup_window: 1 });
    mock.orders.cancel(placed.code, { by: 'user' });

    const review = await client.catalog.skus.createReview(mock.catalog.ids.sku, { rating: 4, review: 'Fine.' });
    const favorite = await client.account.favorites.create({ sku_id: mock.catalog.ids.sku });
    const notifications = await client.account.notifications.list();
    const cpsOrder = await client.cps.get(mock.cps.create().code);
    const supplier = mock.fbs.suppliers()[0]?.id as string;
    const line = { product_uid: 'SKU-1', expected_quantity: 2, keep_serial_numbers: false, has_expiration_date: false, storage_conditions: 0 as const };
    const placedPo = await client.fbs.purchaseOrders.create({ expected_date: '2026-12-01', supplier_id: supplier, line_items: [line] });
    const received = mock.fbs.receive(placedPo.code ?? '');
    const purchaseOrders = (await client.fbs.purchaseOrders.list()).items;
    const stamps = timeStamps([order, mock.events, review, favorite, notifications.items, await client.orders.get('DEMO-OPEN'), cpsOrder, purchaseOrders, received]);
    expect(stamps.length).toBeGreaterThan(8);
    const offset = created.slice(-6);
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[23]:00$/);
    // What the kit writes at `now` carries that season's offset (recorded demo fields keep theirs).
    expect(mock.events.map((e) => e.event_time.slice(-6))).toEqual(mock.events.map(() => offset));
    expect([cpsOrder.date, received.received_at, received.created_at].map((stamp) => stamp?.slice(-6))).toEqual([offset, offset, offset]);
  });

  it('switches on the EU rule: the last Sundays of March and October, 01:00 UTC', () => {
    const mock = newMock();
    const at = (ms: number) => {
      mock.clock.set(ms);
      return mock.orders.create().created_at;
    };
    expect(at(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('2026-03-29T02:59:59+02:00');
    expect(at(Date.UTC(2026, 2, 29, 1, 0, 0))).toBe('2026-03-29T04:00:00+03:00');
    expect(at(Date.UTC(2026, 9, 25, 0, 59, 59))).toBe('2026-10-25T03:59:59+03:00');
    expect(at(Date.UTC(2026, 9, 25, 1, 0, 0))).toBe('2026-10-25T03:00:00+02:00');
    expect(at(Date.UTC(2027, 11, 31, 23, 0, 0))).toBe('2028-01-01T01:00:00+02:00');
  });

  it('agrees with the tz database for Europe/Athens, every 61 hours over 2025-2026', () => {
    const mock = newMock({ seedDemoOrders: false });
    let checked = 0;
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 61 * 3_600_000 + 17_000) {
      mock.clock.set(ms);
      const stamp = mock.orders.create().created_at as string;
      expect(stamp.slice(0, 19)).toBe(athensWallTime(ms));
      expect(Date.parse(stamp)).toBe(Math.floor(ms / 1000) * 1000);
      checked++;
    }
    expect(checked).toBeGreaterThan(280);
  });
});

describe('the kit delivers to a URL with a secret, and follows redirects', () => {
  // Nothing the handler, the adapter or the kit writes to the console may show the secret.
  const consoleLines: string[] = [];
  beforeEach(() => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleLines.push(args.map(String).join(' ')));
    }
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const line of consoleLines.splice(0)) expect(line).not.toContain(SECRET);
  });

  /** A merchant's receiver: urlSecret on a real loopback server; every answer and onEvent's URL kept. */
  async function receiver(options: { redirect?: (req: IncomingMessage, res: ServerResponse) => boolean } = {}) {
    const events: WebhookEvent[] = [];
    const seen: string[] = [];
    const inner = createWebhookHandler({
      urlSecret: SECRET,
      allowedRanges: ['127.0.0.0/8', '::1/128'],
      onEvent: (event, context) => {
        events.push(event);
        seen.push(context.request.url);
      },
    });
    const handler: WebhookHandler = async (request, info) => {
      const answer = await inner(request, info);
      seen.push(`${answer.status} ${await answer.clone().text()} ${JSON.stringify([...answer.headers])}`);
      return answer;
    };
    const node = toNodeHandler(handler);
    const server = createServer((req, res) => {
      if (!options.redirect?.(req, res)) node(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { events, seen, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it.each([
    ['a path segment', (base: string) => `${base}/webhooks/${SECRET}`],
    ['a secret parameter', (base: string) => `${base}/webhooks?secret=${SECRET}`],
  ])('with the secret in %s: every event arrives, and nothing shows the secret', async (_where, url) => {
    const merchant = await receiver();
    const running = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
    try {
      const { mock } = running;
      mock.webhooks.register(url(merchant.base));
      const order = mock.orders.create();
      mock.orders.cancel(order.code, { by: 'user' });
      await mock.webhooks.idle();
      expect(merchant.events.map((e) => e.event_type)).toEqual(['new_order', 'order_updated']);
      expect(mock.webhooks.deliveries.map((d) => [d.status, d.ok])).toEqual([
        [200, true],
        [200, true],
      ]);
      expect(merchant.seen.length).toBeGreaterThan(0);
      for (const text of merchant.seen) expect(text).not.toContain(SECRET);
    } finally {
      await running.close();
    }
  });

  it('a URL with another secret is refused (404) on every attempt', async () => {
    const merchant = await receiver();
    const mock = newMock();
    mock.webhooks.register(`${merchant.base}/webhooks/not-the-secret-0123456789`);
    mock.orders.create();
    await mock.webhooks.idle();
    expect(mock.webhooks.deliveries.map((d) => d.status)).toEqual([404, 404, 404, 404]);
    expect(merchant.events).toHaveLength(0);
  });

  it.each([301, 302, 303, 307, 308])('follows a %i Location redirect with the same POST', async (status) => {
    const merchant = await receiver({
      redirect: (req, res) => {
        if (!req.url?.startsWith('/old-hook')) return false;
        res.writeHead(status, { location: `/webhooks/${SECRET}` }).end();
        return true;
      },
    });
    const mock = newMock();
    mock.webhooks.register(`${merchant.base}/old-hook`);
    const order = mock.orders.create();
    await mock.webhooks.idle();
    expect(merchant.events).toHaveLength(1);
    expect(merchant.events[0]).toMatchObject({ event_type: 'new_order', order: { code: order.code } });
    expect(mock.webhooks.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([[1, 200, true]]);
  });

  it('a redirect loop is a failed attempt after 5 hops, not an endless one', async () => {
    let hops = 0;
    const merchant = await receiver({
      redirect: (_req, res) => {
        hops++;
        res.writeHead(302, { location: '/loop' }).end();
        return true;
      },
    });
    const mock = newMock({ webhookMaxAttempts: 1 });
    mock.webhooks.register(`${merchant.base}/loop`);
    mock.orders.create();
    await mock.webhooks.idle();
    expect(mock.webhooks.deliveries.map((d) => [d.status, d.ok])).toEqual([[302, false]]);
    expect(hops).toBe(6);
  });
});
