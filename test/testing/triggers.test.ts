/**
 * Sandbox webhook triggers (spec/4 section 5; issue 14 item 7): orders.triggerWebhook against the
 * kit's trigger endpoints, which fire real deliveries through the webhook sender for the twelve
 * documented demo orders only,
 * and `emporio-mock trigger <kind> <code>` doing the same from a shell.
 */
import { fileURLToPath } from 'node:url';
import { MarketplaceClient, NotFoundError, RequestValidationError } from 'emporio';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { type OrderUpdatedEvent, parseWebhook } from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';
import { startReceiver } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setUp() {
  const receiver = await startReceiver();
  const running: RunningMockMarketplace = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
  closers.push(receiver.close, running.close);
  running.mock.webhooks.register(receiver.url);
  const client = new MarketplaceClient({ baseUrl: running.url, vendor: running.mock.vendor, tokens: { orders: running.mock.tokens.orders } });
  return { receiver, running, mock: running.mock, client };
}

describe('orders.triggerWebhook against the kit', () => {
  it.each([
    ['creation', 'new_order', undefined],
    ['voucher_update', 'order_updated', 'courier_voucher'],
    ['extension', 'order_updated', 'expires_at'],
    ['cancellation', 'order_updated', 'state'],
  ] as const)('%s sends %s to the registered URL, for two demo orders', async (kind, eventType, changed) => {
    const { receiver, mock, client } = await setUp();
    const before = mock.events.length;
    for (const code of ['DEMO-OPEN', 'DEMO-INVOICE']) {
      await expect(client.orders.triggerWebhook(code, kind)).resolves.toEqual({ success: true });
    }
    await mock.webhooks.idle();
    const delivered = receiver.received.slice(-2).map((r) => parseWebhook(r.body) as OrderUpdatedEvent);
    expect(delivered.map((e) => [e.event_type, e.order?.code])).toEqual([
      [eventType, 'DEMO-OPEN'],
      [eventType, 'DEMO-INVOICE'],
    ]);
    for (const event of delivered) {
      if (changed) expect(Object.keys(event.changes ?? {})).toContain(changed);
      else expect(event.changes).toBeUndefined();
    }
    if (kind === 'cancellation') expect(delivered[0]?.order.state).toBe('cancelled');
    // A test delivery: the order itself is left as it was.
    expect(mock.orders.get('DEMO-INVOICE')?.state).toBe('open');
    expect(mock.events.length).toBe(before + 2);
  });

  it('an unknown order, an order that is not one of the documented demo codes, and DEMO-RETURN are 404; an unknown kind is refused before sending', async () => {
    const { mock, client } = await setUp();
    const created = mock.orders.create();
    const events = mock.events.length;
    await expect(client.orders.triggerWebhook('NOPE-1', 'creation')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.orders.triggerWebhook(created.code, 'creation')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.orders.triggerWebhook('DEMO-RETURN', 'creation')).rejects.toBeInstanceOf(NotFoundError);
    expect(mock.events.length).toBe(events);
    const sent = mock.requests.length;
    await expect(client.orders.triggerWebhook('DEMO-OPEN', 'refund' as never)).rejects.toBeInstanceOf(RequestValidationError);
    expect(mock.requests.length).toBe(sent);
  });
});

describe('emporio-mock trigger', () => {
  const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));
  const run = (args: string[]) => runScript(cli, ['trigger', ...args], { timeoutMs: 20_000 });

  it('fires a delivery and prints the answer; exits non-zero on an unknown order or kind', async () => {
    const { receiver, running, mock } = await setUp();
    const ok = await run(['cancellation', 'DEMO-ACCEPTED', '--url', running.url]);
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toContain('{"success":true}');
    await mock.webhooks.idle();
    const event = parseWebhook(receiver.received.at(-1)?.body ?? '') as OrderUpdatedEvent;
    expect([event.event_type, event.order?.code, event.order?.state]).toEqual(['order_updated', 'DEMO-ACCEPTED', 'cancelled']);

    const missing = await run(['creation', 'NOPE-1', '--url', running.url]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('404');
    const badKind = await run(['refund', 'DEMO-OPEN', '--url', running.url]);
    expect(badKind.code).not.toBe(0);
    expect(badKind.stderr).toContain('kind');
  }, 60_000);
});
