/**
 * The kit's Returns API through the SDK: DEMO-RETURN as recorded, review options by return
 * reason as documented, the one-decision rule and the 422 codes, a lost review answer read
 * back, and the returns webhook delivered to its own registered URL (created, then updated on
 * state, courier and tracking changes; updates only to the URLs that got the created event).
 */
import { readFileSync } from 'node:fs';
import {
  ConnectionError,
  isReturnNotReviewable,
  MarketplaceClient,
  NotFoundError,
  RequestValidationError,
  type ReturnEvent,
  UnprocessableEntityError,
} from 'emporio';
import { createMockMarketplace, type MockMarketplace, mockDeliveryOptions, startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, isReturnEvent, parseWebhook, toNodeHandler, type WebhookEvent } from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../resources/catalog/helpers.js';
import { jsonHeaders } from './helpers.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/recorded-2026h2/${name}.json`, import.meta.url), 'utf8')) as {
    response: { status: number; body: Record<string, unknown> };
    review_options: unknown[];
  };

const mocks: MockMarketplace[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});

interface Sent {
  url: string;
  userAgent: string | null;
  body: Record<string, unknown>;
}
/** A mock whose webhook deliveries are captured (every one answered 200). */
function newMock(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  const sent: Sent[] = [];
  const mock = createMockMarketplace({
    webhookIntervalMs: 5,
    webhookFetch: async (input, init) => {
      sent.push({ url: String(input), userAgent: new Headers(init?.headers).get('user-agent'), body: JSON.parse(String(init?.body)) });
      return new Response('ok');
    },
    ...options,
  });
  mocks.push(mock);
  const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens: mock.tokens });
  return { mock, client, sent };
}

describe('the kit’s DEMO-RETURN and unknown returns', () => {
  it('DEMO-RETURN answers as recorded, every time; it never awaits review', async () => {
    const { client, mock } = newMock();
    const recorded = fixture('returns_show_demo_return').response.body.return;
    expect(await client.returns.get('DEMO-RETURN')).toEqual(recorded);
    expect(await client.returns.get('DEMO-RETURN')).toEqual(recorded);
    const error = await rejection(client.returns.review('DEMO-RETURN', { option: 'approve' }));
    expect(isReturnNotReviewable(error)).toBe(true);
    expect(await client.returns.get('DEMO-RETURN')).toEqual(recorded);
    expect(() => mock.returns.markReturned('DEMO-RETURN')).toThrow(/never changes/);
  });

  it('an unknown return: the recorded 404 body', async () => {
    const { client } = newMock();
    const error = await rejection(client.returns.get('UNKNOWN-RETURN'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).errors).toEqual(fixture('returns_show_not_found').response.body.errors);
    await expect(client.returns.review('UNKNOWN-RETURN', { option: 'approve' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the orders token is required: the products token is refused', async () => {
    const { mock } = newMock();
    const wrong = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens: { orders: mock.tokens.products } });
    await expect(wrong.returns.get('DEMO-RETURN')).rejects.toMatchObject({ status: 401 });
  });
});

describe('the kit’s review', () => {
  it.each([['faulty'], ['missing_part'], ['withdrawal']])('a %s return offers the documented options', async (reason) => {
    const { client, mock } = newMock();
    const order = mock.orders.create({ courier: 'ACS' });
    const created = mock.returns.create(order.code, { reason });
    const got = await client.returns.get(created.return_code);
    expect(got.state).toBe('pending_merchant_review');
    expect(got.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(got.review_options).toEqual(fixture(`returns_review_options_${reason}`).review_options);
    expect(got.return_line_items?.[0]).toMatchObject({ id: order.line_items?.[0]?.id, return_reason: reason });
  });

  it('a missing part the marketplace’s own courier carried: no send_missing_part; the vendor’s spelling of incorrect content', async () => {
    const { client, mock } = newMock({ vendor: 'acme' });
    const order = mock.orders.create({ courier: 'Acme Last Mile' });
    const { return_code } = mock.returns.create(order.code, { reason: 'missing_part' });
    const options = (await client.returns.get(return_code)).review_options?.map((o) => o.option);
    expect(options).toEqual(['approve', 'resolved_via_customer_communication', 'part_not_included', 'incorrect_acme_content']);
  });

  it('approve: returning, with courier and address, no options left; a second decision is refused with return_status', async () => {
    const { client, mock } = newMock();
    const { return_code } = mock.returns.create(mock.orders.create().code);
    const pending = await client.returns.get(return_code);
    await expect(client.returns.review(pending, { option: 'approve' })).resolves.toEqual({ success: true });
    const approved = await client.returns.get(return_code);
    expect(approved).toMatchObject({ state: 'returning', courier: 'ACS', returning_address: { country_code: 'GR' } });
    expect(approved).not.toHaveProperty('review_options');
    const again = await rejection(client.returns.review(return_code, { option: 'not_faulty', comment: 'Works as specified.' }));
    expect(again).toBeInstanceOf(UnprocessableEntityError);
    expect(isReturnNotReviewable(again)).toBe(true);
    expect(mock.returns.decision(return_code)).toEqual({ option: 'approve' });
  });

  it.each([
    ['not_faulty', 'rejected', { comment: 'The product works within its stated specifications.' }],
    ['send_missing_part', 'cancelled', {}],
  ])('%s moves the return to %s', async (option, state, extra) => {
    const { client, mock } = newMock();
    const reason = option === 'send_missing_part' ? 'missing_part' : 'faulty';
    const { return_code } = mock.returns.create(mock.orders.create({ courier: 'ACS' }).code, { reason });
    await client.returns.review(return_code, { option, ...extra });
    expect((await client.returns.get(return_code)).state).toBe(state);
  });

  it('returns_show_doc_example: an approved return with tracking ids answers the documented members', async () => {
    const { client, mock } = newMock();
    const documented = fixture('returns_show_doc_example').response.body.return as Record<string, unknown> & { return_line_items: object[] };
    const order = mock.orders.create({ line_items: [{ ean: '1234567890123' }] });
    const photos = ['https://a.cdn.example.gr/demo/return_photo_1.jpg'];
    mock.returns.create(order.code, { return_code: 'R-111111-1111111', reason: 'damaged_product', user_comment: 'This is a demo comment explaining the return.', user_photos: photos });
    await client.returns.review('R-111111-1111111', { option: 'approve' });
    mock.returns.setTracking('R-111111-1111111', ['DEMO-RET-TRACK-1', 'DEMO-RET-TRACK-2']);
    const got = await client.returns.get('R-111111-1111111');
    expect(Object.keys(got).sort()).toEqual(Object.keys(documented).sort());
    expect(got).toMatchObject({ state: documented.state, courier: documented.courier, courier_tracking_ids: documented.courier_tracking_ids });
    const item = got.return_line_items?.[0] ?? {};
    expect(Object.keys(item).sort()).toEqual(Object.keys(documented.return_line_items[0] as object).sort());
    expect(item).toMatchObject({ ean: '1234567890123', return_reason: 'damaged_product', user_photos: photos });
  });

  it('the 422 codes, where the SDK’s own checks are not there to stop the request', async () => {
    const { mock } = newMock();
    const { return_code } = mock.returns.create(mock.orders.create().code, { reason: 'missing_part' });
    const review = async (body: unknown) => {
      const answer = await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/returns/${return_code}/review`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as { errors?: { code: string }[] } };
    };
    const recorded = fixture('returns_review_error_option').response;
    expect(await review({ option: 'not_faulty', comment: 'x' })).toEqual({ status: recorded.status, body: recorded.body });
    expect((await review({})).body.errors?.[0]?.code).toBe('option');
    expect((await review({ option: 'part_not_included', comment: '  ' })).body.errors?.[0]?.code).toBe('comment');
    expect((await review({ option: 'part_not_included', comment: 'x'.repeat(1001) })).body.errors?.[0]?.code).toBe('rejection_comment_sanitized');
    expect(mock.returns.get(return_code)?.state).toBe('pending_merchant_review');
    // A proposed part URL is taken where the option supports it only.
    expect((await review({ option: 'part_not_included', comment: 'In the box', proposed_part_url: 'https://shop.example/p' })).status).toBe(200);
    expect(mock.returns.decision(return_code)).toEqual({ option: 'part_not_included', comment: 'In the box', proposed_part_url: 'https://shop.example/p' });
  });

  it('the SDK’s checks stop what the kit would refuse, before anything reaches it', async () => {
    const { client, mock } = newMock();
    const { return_code } = mock.returns.create(mock.orders.create().code, { reason: 'withdrawal' });
    const pending = await client.returns.get(return_code);
    const before = mock.requests.length;
    await expect(client.returns.review(pending, { option: 'not_faulty', comment: 'x' })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.returns.review(return_code, { option: 'approve', comment: 'x'.repeat(1001) })).rejects.toBeInstanceOf(RequestValidationError);
    expect(mock.requests.length).toBe(before);
  });

  it('a lost review answer is read back: resolves when the return shows the decision, else the original error', async () => {
    const lostAfter = newMock({ faults: { rate: 1, kinds: ['drop'], phase: 'after', match: (r) => r.method === 'POST' } });
    const first = lostAfter.mock.returns.create(lostAfter.mock.orders.create().code);
    await expect(lostAfter.client.returns.review(first.return_code, { option: 'approve' })).resolves.toEqual({ success: true });
    expect(lostAfter.mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    const lostBefore = newMock({ faults: { rate: 1, kinds: ['drop'], phase: 'before', match: (r) => r.method === 'POST' } });
    const second = lostBefore.mock.returns.create(lostBefore.mock.orders.create().code);
    await expect(lostBefore.client.returns.review(second.return_code, { option: 'approve' })).rejects.toBeInstanceOf(ConnectionError);
    expect(lostBefore.mock.returns.get(second.return_code)?.state).toBe('pending_merchant_review');
    expect(lostBefore.mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});

describe('the kit’s returns webhook', () => {
  const ORDERS_URL = 'https://shop.example/hooks/orders';
  const RETURNS_URL = 'https://shop.example/hooks/returns';

  it('created, then updated on state, courier and tracking changes, to the returns URL only; shaped as documented', async () => {
    const { client, mock, sent } = newMock();
    mock.webhooks.register(ORDERS_URL);
    mock.returnWebhooks.register(RETURNS_URL);
    const order = mock.orders.create();
    const { return_code } = mock.returns.create(order.code, { reason: 'wrong_product', user_comment: 'Ordered black, received white.' });
    await client.returns.review(return_code, { option: 'approve' });
    mock.returns.setTracking(return_code, ['ACS1234567890']);
    mock.returns.changeCourier(return_code, 'Speedex');
    mock.returns.markReturned(return_code);
    await mock.webhooks.idle();
    await mock.returnWebhooks.idle();

    expect(sent.filter((s) => s.url === ORDERS_URL).map((s) => s.body.event_type)).toEqual(['new_order']);
    const events = sent.filter((s) => s.url === RETURNS_URL).map((s) => parseWebhook(s.body, { strict: true }));
    expect(events.every(isReturnEvent)).toBe(true);
    const returnEvents = events as ReturnEvent[];
    expect(returnEvents).toEqual(mock.returns.events);
    expect(returnEvents.map((e) => e.event_type)).toEqual(['merchant_return_created', ...Array(4).fill('merchant_return_updated')]);
    // Each update names the same members as the documented payload of its kind.
    const documented = ['updated_shipment_info', 'updated_tracking_ids', 'updated_courier_reassigned', 'updated_state'].map(
      (name) => fixture(`returns_webhook_${name}`) as unknown as ReturnEvent,
    );
    returnEvents.slice(1).forEach((event, index) => {
      const expected = documented[index] as ReturnEvent;
      expect(Object.keys(event.changes ?? {}).sort()).toEqual(Object.keys(expected.changes ?? {}).sort());
      expect(event.changes).toEqual({ ...expected.changes, ...(index === 0 ? { returning_address: event.changes?.returning_address } : {}) });
      expect(Object.keys(event.return).sort()).toEqual(Object.keys(expected.return).sort());
    });
    const created = fixture('returns_webhook_created') as unknown as ReturnEvent;
    expect(Object.keys(returnEvents[0]?.return ?? {}).sort()).toEqual([...Object.keys(created.return), 'review_options'].sort());
    // UTC times, one return's events apart in time (receivers dedupe by code, type and time).
    const times = returnEvents.map((e) => e.event_time as string);
    expect(times.every((t) => /Z$/.test(t))).toBe(true);
    expect(new Set(times).size).toBe(times.length);
    expect([...times].sort()).toEqual(times);
    // The same notifier as the order webhook.
    expect(new Set(sent.map((s) => s.userAgent)).size).toBe(1);
    expect(mock.returnWebhooks.deliveries.every((d) => d.ok && d.return_code === return_code)).toBe(true);
  });

  it('updates go only to the URLs that got the return’s created event; nothing before a URL is registered', async () => {
    const { mock, sent } = newMock();
    const order = mock.orders.create();
    const early = mock.returns.create(order.code);
    mock.returnWebhooks.register(RETURNS_URL);
    mock.returns.expire(early.return_code);
    const later = mock.returns.create(order.code);
    mock.returns.expire(later.return_code);
    await mock.returnWebhooks.idle();
    expect(sent.map((s) => [(s.body.return as { return_code: string }).return_code, s.body.event_type])).toEqual([
      [later.return_code, 'merchant_return_created'],
      [later.return_code, 'merchant_return_updated'],
    ]);
    expect(mock.returnWebhooks.urls).toEqual([RETURNS_URL]);
    expect(mock.webhooks.urls).toEqual([]);
  });

  it('a courier or tracking ids set to what the return already has change nothing: no update is sent', async () => {
    const { client, mock } = newMock();
    mock.returnWebhooks.register(RETURNS_URL);
    const { return_code } = mock.returns.create(mock.orders.create().code);
    await client.returns.review(return_code, { option: 'approve' });
    mock.returns.changeCourier(return_code, 'ACS');
    mock.returns.setTracking(return_code, ['ACS1234567890']);
    mock.returns.setTracking(return_code, ['ACS1234567890']);
    await mock.returnWebhooks.idle();
    expect(mock.returns.events.map((e) => Object.keys(e.changes ?? {}))).toEqual([[], ['state', 'courier', 'returning_address'], ['courier_tracking_ids']]);
  });

  it('tracking ids are deduplicated, and an empty list makes no courier_tracking_ids change (sent only with a value)', async () => {
    const { client, mock } = newMock();
    mock.returnWebhooks.register(RETURNS_URL);
    const { return_code } = mock.returns.create(mock.orders.create().code);
    await client.returns.review(return_code, { option: 'approve' });
    mock.returns.setTracking(return_code, []);
    mock.returns.setTracking(return_code, ['ACS1', 'ACS1', 'ACS2']);
    await mock.returnWebhooks.idle();
    expect((await client.returns.get(return_code)).courier_tracking_ids).toEqual(['ACS1', 'ACS2']);
    expect(mock.returns.events.map((e) => e.changes?.courier_tracking_ids).filter(Boolean)).toEqual([{ old: null, new: ['ACS1', 'ACS2'] }]);
  });

  it('over loopback into createWebhookHandler: typed return events, each once', async () => {
    const server = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
    const received: WebhookEvent[] = [];
    const receiver = (await import('node:http')).createServer(
      toNodeHandler(createWebhookHandler({ ...mockDeliveryOptions(false), onEvent: (event) => void received.push(event) })),
    );
    try {
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as { port: number };
      server.mock.returnWebhooks.register(`http://127.0.0.1:${port}/returns`);
      const client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
      const { return_code } = server.mock.returns.create(server.mock.orders.create().code, { reason: 'withdrawal' });
      await server.mock.returnWebhooks.idle();
      const [created] = received;
      expect(created && isReturnEvent(created) ? created.return.review_options?.map((o) => o.option) : undefined).toEqual(['approve', 'out_of_policy_withdrawal']);
      await client.returns.review(created && isReturnEvent(created) ? created.return : return_code, { option: 'out_of_policy_withdrawal' });
      await server.mock.returnWebhooks.idle();
      expect(received.map((e) => (isReturnEvent(e) ? `${e.event_type} ${e.return.state}` : e.event_type))).toEqual([
        'merchant_return_created pending_merchant_review',
        'merchant_return_updated rejected',
      ]);
    } finally {
      receiver.close();
      await server.close();
    }
  });
});
