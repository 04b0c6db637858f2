/**
 * The service as it runs today (spec/4): every past order resolves, drift is reported once
 * and refused only in strict mode, and the vendor's spelling reads like the spec's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSetAsReady, type DriftReport, MarketplaceClient, parseWebhook, ResponseValidationError, WebhookParseError } from 'emporio';
import { createMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, type WebhookEvent } from 'emporio/webhooks';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every order body of the recordings (document 1 shows no JSON examples of its own). */
const folder = new URL('../fixtures/recorded/', import.meta.url);
const recordedOrders = readdirSync(folder)
  .filter((name) => name.startsWith('merchants_ecommerce_orders_'))
  .map((name) => ({ name, response: JSON.parse(readFileSync(new URL(name, folder), 'utf8')).response }))
  .filter(({ response }) => response.body_is_json && response.body?.order)
  .map(({ name, response }) => ({ name, order: response.body.order as Record<string, Json> }));

/** A loopback server that answers every GET with the current body. */
let body = '{}';
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client(options: { strict?: boolean; reports?: DriftReport[]; vendor?: string } = {}) {
  return new MarketplaceClient({
    baseUrl,
    vendor: options.vendor ?? 'marketplace',
    token: 'test-token',
    cache: false,
    maxRetries: 0,
    strict: options.strict ?? false,
    hooks: { onDrift: (report) => options.reports?.push(report) },
  });
}

function handler(options: { strict?: boolean; reports?: DriftReport[]; vendor?: string } = {}) {
  const events: WebhookEvent[] = [];
  /** What `onError` was told of each delivery not answered 200 (kept off the console). */
  const refusals: { status: number; reason: string }[] = [];
  const handle = createWebhookHandler({
    urlSecret: false,
    allowedRanges: false,
    dedupe: false,
    vendor: options.vendor,
    strict: options.strict ?? false,
    onDrift: (report) => options.reports?.push(report),
    onEvent: (event) => void events.push(event),
    onError: (_error, info) => void refusals.push({ status: info.status, reason: info.reason }),
  });
  const deliver = (order: unknown) =>
    handle(new Request('https://shop.example/hook', { method: 'POST', body: JSON.stringify({ event_type: 'new_order', event_time: '2026-05-01T10:00:00+03:00', order }) }));
  return { deliver, events, refusals };
}

/** Every member path of `value` (array positions as in the value), leaves and objects alike. */
function memberPaths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...memberPaths(child, [...prefix, key])]);
}

/** A value of another JSON type than `value`'s. */
function otherType(value: Json): Json {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'a list as text';
  if (value === null) return ['null became a list'];
  return 'an object as text';
}

function withValue(order: Record<string, Json>, path: (string | number)[], value: Json): Record<string, Json> {
  const copy = structuredClone(order);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, Json>)[key] as Json;
  (node as Record<string | number, Json>)[path.at(-1)!] = value;
  return copy;
}

const schemaPath = (path: (string | number)[]) => `$.order${path.map((key) => (typeof key === 'number' ? '[]' : `.${key}`)).join('')}`;

describe('every past order', () => {
  it('the recordings are here', () => {
    expect(recordedOrders.length).toBeGreaterThanOrEqual(12);
  });

  it.each(recordedOrders.map(({ name, order }) => [name, order] as const))('%s: orders.get and the webhook handler take it as documented, no drift', async (_name, order) => {
    const reports: DriftReport[] = [];
    body = JSON.stringify({ order });
    expect(await client({ reports, strict: true }).orders.get(order.code as string)).toEqual(order);
    const { deliver, events } = handler({ reports, strict: true });
    expect((await deliver(order)).status).toBe(200);
    expect(events[0]?.order).toEqual(order);
    expect(reports).toEqual([]);
  });

  it('each member of the recorded orders replaced by a value of another type: resolves as sent, reported once, refused when strict', async () => {
    let drifted = 0;
    const silent = new Set<string>();
    // The work is bounded by what differs: each schema path with each kind of value it holds in the
    // recordings, once (its first occurrence), not every member of every order (1,179, ten times more).
    const tried = new Set<string>();
    for (const { order } of recordedOrders) {
      for (const path of memberPaths(order)) {
        if (path.length === 1 && path[0] === 'code') continue;
        const value = path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key] as Json, order);
        const kind = `${schemaPath(path)} ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
        if (tried.has(kind)) continue;
        tried.add(kind);
        const mutated = withValue(order, path, otherType(value));
        body = JSON.stringify({ order: mutated });

        const reports: DriftReport[] = [];
        const got = await client({ reports }).orders.get(order.code as string);
        expect(got).toEqual(mutated);
        expect(got.code).toBe(order.code);

        const hooked: DriftReport[] = [];
        const { deliver, events } = handler({ reports: hooked });
        expect((await deliver(mutated)).status).toBe(200);
        expect(events[0]?.order).toEqual(mutated);

        if (reports.length === 0) {
          silent.add(schemaPath(path));
          continue;
        }
        drifted++;
        expect(reports).toHaveLength(1);
        expect(reports[0]?.path).toBe(schemaPath(path));
        expect(hooked.map((r) => r.path)).toEqual([schemaPath(path)]);
        const refused = await client({ strict: true }).orders.get(order.code as string).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ResponseValidationError);
        expect((refused as ResponseValidationError).issues[0]?.path).toEqual(['order', ...path]);
        const strictHandler = handler({ strict: true });
        expect((await strictHandler.deliver(mutated)).status).toBe(400);
        expect(strictHandler.events).toEqual([]);
        expect(strictHandler.refusals).toEqual([{ status: 400, reason: 'body_invalid' }]);
      }
    }
    expect(tried.size).toBeGreaterThan(100);
    expect(drifted).toBe(tried.size);
    // Every member of the recordings is documented and typed: none passes unreported.
    expect([...silent]).toEqual([]);
  });

  it('a drifted order is reported once per client, however many orders share the drift', async () => {
    const reports: DriftReport[] = [];
    const shared = client({ reports });
    for (const { order } of recordedOrders) {
      body = JSON.stringify({ order: { ...order, custom: 7 } });
      expect((await shared.orders.get(order.code as string)).custom).toBe(7);
    }
    expect(reports.map((r) => r.path)).toEqual(['$.order.custom']);
  });
});

describe("the vendor's spelling", () => {
  it('an order from the kit with vendor acme reads like the spec: fulfilled_by, fees, plus user, courier, set as ready', async () => {
    const marketplace = await startMockMarketplace({ port: 0, vendor: 'acme' });
    try {
      const { mock } = marketplace;
      const acme = new MarketplaceClient({ baseUrl: marketplace.url, vendor: 'acme', tokens: mock.tokens, maxRetries: 0 });
      const created = mock.orders.create();
      const raw = (await (
        await fetch(`${marketplace.url}/merchants/ecommerce/orders/${created.code}`, {
          headers: { accept: 'application/vnd.acme+json; version=3.0', authorization: `Bearer ${mock.tokens.orders}` },
        })
      ).json()) as { order: Record<string, unknown> & { customer: Record<string, unknown> } };
      // The kit speaks the vendor's spelling, as the real service does.
      expect(raw.order.courier).toBe('Acme Last Mile');
      expect(raw.order.fulfilled_by_acme).toBe(false);
      expect(raw.order).not.toHaveProperty('fulfilled_by_marketplace');
      expect(raw.order.customer.acme_plus_user).toBe(false);

      const open = await acme.orders.get(created.code);
      expect(open.fulfilled_by_marketplace).toBe(false);
      expect((open as unknown as Record<string, unknown>).fulfilled_by_acme).toBe(false);
      expect(open.customer?.marketplace_plus_user).toBe(false);
      const options = open.accept_options!;
      await acme.orders.accept(created.code, { pickup_location: options.pickup_location![0]!.id!, pickup_window: options.pickup_window![0]!.id! });
      const accepted = await acme.orders.get(created.code);
      expect(canSetAsReady(accepted)).toEqual({ ok: true, reasons: [] });
      await acme.orders.setAsReady(created.code, { order: accepted });
      expect((await acme.orders.get(created.code)).is_ready_for_dispatch).toBe(true);

      // An order built by hand (a copy) does not remember its vendor: the option says it.
      const copy = JSON.parse(JSON.stringify(accepted));
      expect(canSetAsReady({ ...copy, is_ready_for_dispatch: false }).ok).toBe(false);
      expect(canSetAsReady({ ...copy, is_ready_for_dispatch: false }, { vendor: 'acme' })).toEqual({ ok: true, reasons: [] });
      // FBS in the vendor's spelling is recognised too.
      const fbs = { ...copy, is_ready_for_dispatch: false, fulfilled_by_acme: true };
      delete fbs.fulfilled_by_marketplace;
      expect(canSetAsReady(fbs, { vendor: 'acme' }).reasons.join()).toContain('FBS');
    } finally {
      await marketplace.close();
    }
  });

  /** An accepted order in vendor acme's spelling, as the real service sends it. */
  const acmeOrder = {
    code: '260501-1000001',
    state: 'accepted',
    courier: 'Acme Last Mile',
    fulfilled_by_acme: false,
    fees: { acme_coins_fee: 0.5 },
    customer: { id: 'user1', acme_plus_user: true },
  };

  it('parseWebhook and the handler fill the typed names and remember the vendor; the wire fields stay', async () => {
    const order = acmeOrder;
    const text = JSON.stringify({ event_type: 'order_updated', order });
    const event = parseWebhook(text, { vendor: 'acme' });
    expect(event.order).toMatchObject({ ...order, fulfilled_by_marketplace: false, fees: { acme_coins_fee: 0.5, marketplace_coins_fee: 0.5 }, customer: { acme_plus_user: true, marketplace_plus_user: true } });
    expect(canSetAsReady(event.order!)).toEqual({ ok: true, reasons: [] });
    // Without the vendor the courier is another one.
    const plain = parseWebhook(text);
    expect(plain.order).not.toHaveProperty('fulfilled_by_marketplace');
    expect(canSetAsReady(plain.order!).ok).toBe(false);

    const events: WebhookEvent[] = [];
    const handle = createWebhookHandler({ urlSecret: false, allowedRanges: false, vendor: 'acme', onEvent: (e) => void events.push(e) });
    expect((await handle(new Request('https://shop.example/hook', { method: 'POST', body: text }))).status).toBe(200);
    expect(events[0]?.order?.fulfilled_by_marketplace).toBe(false);
    expect(canSetAsReady(events[0]!.order!).ok).toBe(true);
  });

  describe('a vendor field of another type than the name it stands for is drift, under its own wire path', () => {
    const cases = [
      { name: 'fulfilled_by_acme', path: ['fulfilled_by_acme'], value: 'not-a-flag', expected: 'boolean', received: 'string', typed: ['fulfilled_by_marketplace'] },
      { name: 'fees.acme_coins_fee', path: ['fees', 'acme_coins_fee'], value: '0.50 EUR', expected: 'number', received: 'string', typed: ['fees', 'marketplace_coins_fee'] },
      { name: 'customer.acme_plus_user', path: ['customer', 'acme_plus_user'], value: 987654, expected: 'boolean', received: 'number', typed: ['customer', 'marketplace_plus_user'] },
    ] as const;

    it.each(cases)('$name: orders.get resolves as sent, reported once per client, refused when strict', async ({ path, value, expected, received, typed }) => {
      const drifted = withValue(acmeOrder, [...path], value);
      body = JSON.stringify({ order: drifted });
      const reports: DriftReport[] = [];
      const acme = client({ vendor: 'acme', reports });
      const got = await acme.orders.get(acmeOrder.code);
      expect(got).toMatchObject(drifted);
      // The typed name is not filled from a value of another type.
      expect(typed.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], got)).toBeUndefined();
      await acme.orders.get(acmeOrder.code);
      expect(reports).toEqual([
        { api: 'orders', method: 'GET', url: `${baseUrl}/merchants/ecommerce/orders/${acmeOrder.code}`, path: `$.order.${path.join('.')}`, expected, received },
      ]);
      expect(JSON.stringify(reports)).not.toContain(String(value));

      const refused = await client({ vendor: 'acme', strict: true }).orders.get(acmeOrder.code).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ResponseValidationError);
      expect((refused as ResponseValidationError).issues).toEqual([{ path: ['order', ...path], message: `expected ${expected}, received ${received}` }]);

      // Without the vendor the field is an unknown member: passes silently.
      const plain: DriftReport[] = [];
      await client({ reports: plain, strict: true }).orders.get(acmeOrder.code);
      expect(plain).toEqual([]);
    });

    it.each(cases)('$name: a webhook with it is delivered (200) and reported once per handler, refused when strict', async ({ path, value, expected, received }) => {
      const drifted = withValue(acmeOrder, [...path], value);
      const reports: DriftReport[] = [];
      const { deliver, events } = handler({ vendor: 'acme', reports });
      expect((await deliver(drifted)).status).toBe(200);
      expect((await deliver(drifted)).status).toBe(200);
      expect(events.map((event) => event.order?.code)).toEqual([acmeOrder.code, acmeOrder.code]);
      expect(reports).toEqual([{ api: 'webhook', method: 'POST', url: '', path: `$.order.${path.join('.')}`, expected, received }]);

      const strict = handler({ vendor: 'acme', strict: true });
      expect((await strict.deliver(drifted)).status).toBe(400);
      expect(strict.events).toEqual([]);

      const text = JSON.stringify({ event_type: 'order_updated', order: drifted });
      const told: DriftReport[] = [];
      expect(parseWebhook(text, { vendor: 'acme', onDrift: (report) => told.push(report) }).order).toMatchObject(drifted);
      expect(told.map((report) => report.path)).toEqual([`$.order.${path.join('.')}`]);
      expect(() => parseWebhook(text, { vendor: 'acme', strict: true })).toThrow(WebhookParseError);
      // An event type the SDK does not know keeps its order the same way.
      const unknown = JSON.stringify({ event_type: 'order_archived', order: drifted });
      const toldUnknown: DriftReport[] = [];
      expect(parseWebhook(unknown, { vendor: 'acme', onDrift: (report) => toldUnknown.push(report) }).order).toMatchObject(drifted);
      expect(toldUnknown.map((report) => report.path)).toEqual([`$.order.${path.join('.')}`]);
      // strict refuses its drift too, as in a known event's order (it no longer drops the order silently).
      expect(() => parseWebhook(unknown, { vendor: 'acme', strict: true })).toThrow(WebhookParseError);
    });

    it('without onDrift, the client says it once through logger.warn, with no value', async () => {
      body = JSON.stringify({ order: { ...acmeOrder, fulfilled_by_acme: 'sí' } });
      const warnings: unknown[][] = [];
      const acme = new MarketplaceClient({
        baseUrl,
        vendor: 'Acme',
        token: 'test-token',
        cache: false,
        maxRetries: 0,
        logger: { warn: (...args: unknown[]) => void warnings.push(args), debug: () => {}, info: () => {}, error: () => {} },
      });
      expect((await acme.orders.get(acmeOrder.code)).fulfilled_by_marketplace).toBeUndefined();
      await acme.orders.get(acmeOrder.code);
      const drift = warnings.filter(([message]) => String(message).includes('drifted'));
      expect(drift).toHaveLength(1);
      expect(String(drift[0]?.[0])).toContain('$.order.fulfilled_by_acme: expected boolean, received string');
      expect(JSON.stringify(drift)).not.toContain('sí');
    });
  });
});

describe("the kit's orders follow today's shapes", () => {
  /** `count` orders made by a kit with `seed` and `vendor`, read back through a strict client. */
  async function kitOrders(seed: number, vendor: string, count: number) {
    const mock = createMockMarketplace({ seed, vendor, seedDemoOrders: false });
    const reports: DriftReport[] = [];
    const client = new MarketplaceClient({
      baseUrl: mock.baseUrl,
      vendor,
      tokens: mock.tokens,
      fetch: mock.fetch,
      maxRetries: 0,
      strict: true,
      hooks: { onDrift: (report) => void reports.push(report) },
    });
    const codes = Array.from({ length: count }, () => mock.orders.create().code);
    const orders = [];
    for (const code of codes) orders.push(await client.orders.get(code));
    return { mock, client, orders, reports };
  }

  it.each(['marketplace', 'acme'])('vendor %s: every order carries custom as a string, a seeded share returns (omitted when none); every order has a sized item; no drift', async (vendor) => {
    const { mock, orders, reports } = await kitOrders(7, vendor, 40);
    try {
      expect(reports).toEqual([]);
      expect(orders.every((order) => typeof order.custom === 'string')).toBe(true);
      const withReturns = orders.filter((order) => order.returns !== undefined);
      expect(withReturns.length).toBeGreaterThan(2);
      expect(withReturns.length).toBeLessThan(30);
      for (const order of withReturns) expect(order.returns?.length).toBeGreaterThan(0);
      for (const order of withReturns) {
        for (const entry of order.returns!) {
          expect(Object.keys(entry).sort()).toEqual(['return_uuid', 'tracking_ids']);
          expect(entry.return_uuid).toMatch(/^[A-Za-z0-9]{10}$/);
          expect(entry.tracking_ids!.length).toBeGreaterThan(0);
          for (const id of entry.tracking_ids!) expect(id).toMatch(/^[A-Z0-9]{13}$/);
        }
      }
      expect(orders.every((order) => order.line_items?.some((item) => item.size?.label === 'Νούμερο'))).toBe(true);
      // The webhook events carry the same orders, read as strictly.
      for (const event of mock.events) expect(parseWebhook(JSON.stringify(event), { vendor, strict: true }).order?.code).toBe(event.order.code);

      // The same seed makes the same orders.
      const again = await kitOrders(7, vendor, 40);
      expect(again.orders.map((order) => [order.custom, order.returns])).toEqual(orders.map((order) => [order.custom, order.returns]));
      again.mock.close();
    } finally {
      mock.close();
    }
  });

  it("the kit's return actions add a return each to the order and its events; the changes name the state only", async () => {
    const { mock, client } = await kitOrders(3, 'acme', 0);
    try {
      const { code } = mock.orders.create({ returns: [] });
      const open = await client.orders.get(code);
      await client.orders.accept(code, { pickup_location: open.accept_options!.pickup_location![0]!.id!, pickup_window: open.accept_options!.pickup_window![0]!.id! });
      mock.orders.dispatch(code);
      mock.orders.partiallyReturn(code);
      const partial = mock.events.at(-1)!;
      expect(partial.changes).toEqual({ state: { old: 'dispatched', new: 'partially_returned' } });
      expect(partial.order.returns).toHaveLength(1);
      mock.orders.returnOrder(code);
      const returned = mock.events.at(-1)!;
      expect(returned.changes).toEqual({ state: { old: 'partially_returned', new: 'returned' } });
      expect(returned.order.returns).toHaveLength(2);
      expect(parseWebhook(JSON.stringify(returned), { vendor: 'acme', strict: true }).order?.returns).toEqual(returned.order.returns);
      const read = await client.orders.get(code);
      expect(read.returns).toEqual(returned.order.returns);
      const [first, second] = read.returns!;
      expect(first!.return_uuid).not.toBe(second!.return_uuid);
      expect(first!.tracking_ids).toEqual([expect.stringMatching(/^[A-Z0-9]{13}$/)]);
    } finally {
      mock.close();
    }
  });
});
