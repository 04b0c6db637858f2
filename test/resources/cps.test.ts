/**
 * client.cps (spec/4 section 7): its own token, the recordings, the checks before sending, the
 * kit's orders (reject options, rejecting twice) and the lost answer read back.
 */
import { readFileSync } from 'node:fs';
import { ConnectionError, InternalServerError, isOrderAlreadyRejected, MarketplaceClient, RequestValidationError } from 'emporio';
import type { CpsOrder } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, useMswServer } from '../helpers/server.js';
import { capture } from './catalog/helpers.js';

const server = useMswServer();
const CPS = `${BASE}/merchants/cps/orders`;
const CPS_TOKEN = 'tok_SECRET_cps_55';

const recording = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/recorded/${name}.json`, import.meta.url), 'utf8')) as {
    request: { params: { ':reason': Record<string, string> } | null };
    response: { status: number; body: Record<string, unknown> };
  };
const client = () => new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { orders: 'orders-token', cps: CPS_TOKEN } });

describe('client.cps against the recordings', () => {
  it('get: the order with its reject options, sent with tokens.cps and version 3.0', async () => {
    const rec = recording('merchants_cps_orders_show');
    const seen = capture(server, 'get', `${CPS}/1234567`, () => HttpResponse.json(rec.response.body));
    const order = await client().cps.get('1234567');
    expect(order).toEqual(rec.response.body.order);
    expect(order.reject_options?.map((o) => o.name)).toContain('other');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${CPS_TOKEN}`);
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.0');
  });

  it.each([['merchants_cps_orders_reject'], ['merchants_cps_orders_reject_other']])('reject sends %s’s body', async (name) => {
    const rec = recording(name);
    const seen = capture(server, 'post', `${CPS}/1234567/reject`, () => HttpResponse.json(rec.response.body));
    const reason = rec.request.params?.[':reason'] as Record<string, string>;
    const params = Object.fromEntries(Object.entries(reason).map(([k, v]) => [k.slice(1), v])) as { name: string; comment?: string };
    await expect(client().cps.reject('1234567', params)).resolves.toBeUndefined();
    expect(seen[0]?.body).toEqual({ reason: params });
  });

  it('without tokens.cps (and no default token) nothing is sent', async () => {
    const orders = new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { orders: 'x' } });
    await expect(orders.cps.get('1234567')).rejects.toThrow(/tokens\.cps/);
  });

  it('a rejection is never repeated: a 503 is thrown as it is', async () => {
    const seen = capture(server, 'post', `${CPS}/1/reject`, () => HttpResponse.json({}, { status: 503 }));
    await expect(client().cps.reject('1', { name: 'user_cancel' })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });
});

describe('client.cps checks before sending', () => {
  const order = recording('merchants_cps_orders_show').response.body.order as CpsOrder;

  it.each([
    [{ name: 'other' }, undefined, 'comment'],
    [{ name: 'other', comment: '  ' }, undefined, 'comment'],
    [{ name: '' }, undefined, 'name'],
    [{ name: 'user_cancel', note: 'x' }, undefined, 'note'],
    [{ name: 'made_up' }, order, 'reject_options'],
    [{ name: 'user_cancel' }, { code: '1234567' }, 'no reject_options'],
    [{ name: 'user_cancel' }, { ...order, code: 'other' } as never, 'order.code'],
  ])('refuses %j', async (reason, withOrder, text) => {
    const error = await client()
      .cps.reject('1234567', reason as never, withOrder ? { order: withOrder as never } : undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(text);
  });
});

describe('client.cps against the kit', () => {
  const kitClient = (mock: ReturnType<typeof createMockMarketplace>) =>
    new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens: { cps: mock.tokens.cps } });

  it('serves the recorded order; a rejection ends its reject options; rejecting twice is isOrderAlreadyRejected', async () => {
    const mock = createMockMarketplace();
    const cps = kitClient(mock).cps;
    const order = await cps.get('1234567');
    expect(order.state).toBe('Προς χρέωση');
    await cps.reject('1234567', { name: 'other', comment: 'Closed for the holidays' }, { order });
    const rejected = await cps.get('1234567');
    expect(rejected.reject_options).toBeUndefined();
    expect(rejected.rejection_reason).toContain('Closed for the holidays');
    const again = await cps.reject('1234567', { name: 'user_cancel' }).catch((e: unknown) => e);
    expect(isOrderAlreadyRejected(again)).toBe(true);
    await expect(cps.get('nope')).rejects.toMatchObject({ status: 404 });
  });

  it('the orders token is refused by the CPS API', async () => {
    const mock = createMockMarketplace();
    const wrong = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens: { cps: mock.tokens.orders } });
    await expect(wrong.cps.get('1234567')).rejects.toMatchObject({ status: 401 });
  });

  it('a lost answer is read back: resolves when the order shows the rejection, else throws the original error', async () => {
    const mock = createMockMarketplace({ faults: { rate: 1, kinds: ['drop'], phase: 'after', match: (r) => r.method === 'POST' } });
    const cps = kitClient(mock).cps;
    const { code } = mock.cps.create();
    await expect(cps.reject(code, { name: 'unpaid' })).resolves.toBeUndefined();
    expect(mock.cps.get(code)?.rejection_reason).not.toBeNull();
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    const lost = createMockMarketplace({ faults: { rate: 1, kinds: ['drop'], phase: 'before', match: (r) => r.method === 'POST' } });
    const second = lost.cps.create();
    await expect(kitClient(lost).cps.reject(second.code, { name: 'unpaid' })).rejects.toBeInstanceOf(ConnectionError);
    // Not rejected: the member is absent, as recorded.
    expect(lost.cps.get(second.code)?.rejection_reason).toBeUndefined();
  });
});
