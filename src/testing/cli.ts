#!/usr/bin/env node
/**
 * `emporio-mock`: the mock marketplace on a loopback port for a merchant's manual testing.
 *   emporio-mock --port 4010 [--host 127.0.0.1] [--vendor marketplace] [--token T] [--seed 1] [--webhook URL] [--returns-webhook URL]
 *   emporio-mock trigger <kind> <code> [--url http://127.0.0.1:4010] [--vendor marketplace] [--token T]
 */
import { parseArgs } from 'node:util';
import { MarketplaceClient } from '../client.js';
import { WEBHOOK_TRIGGER_KINDS, type WebhookTriggerKind } from '../resources/orders/index.js';
import { createMockCore } from './mock.js';
import { listen } from './server.js';

const USAGE = `Usage: emporio-mock [--port 4010] [--host 127.0.0.1] [--vendor marketplace] [--token T] [--seed 1] [--webhook URL] [--returns-webhook URL]

Starts a mock of the marketplace's merchant, catalog and account APIs on a loopback port.
  --token T      one bearer token for every API (default: test-orders-token, test-products-token, ...)
  --webhook URL  post order events to URL (up to 4 attempts, 5 minutes apart)
  --returns-webhook URL  post return events to URL (registered apart; a return awaiting review is made at start)

Usage: emporio-mock trigger <kind> <code> [--url http://127.0.0.1:4010] [--vendor marketplace] [--token T]

Asks a running mock (or the service's sandbox, --url https://...) to send a test delivery for
an order to the registered webhook URL, as the service's sandbox triggers do.
  <kind>         ${WEBHOOK_TRIGGER_KINDS.join(', ')}
  --token T      the orders token (default test-orders-token)`;

/** `trigger <kind> <code>`: calls the sandbox trigger endpoint through the SDK and prints the answer. */
async function trigger(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:4010' },
      vendor: { type: 'string', default: 'marketplace' },
      token: { type: 'string', default: 'test-orders-token' },
    },
  });
  const [kind, code, ...extra] = positionals;
  if (kind === undefined || code === undefined || extra.length > 0) throw new TypeError(`trigger takes a kind and an order code\n\n${USAGE}`);
  const client = new MarketplaceClient({ baseUrl: values.url, vendor: values.vendor, tokens: { orders: values.token } });
  const answer = await client.orders.triggerWebhook(code, kind as WebhookTriggerKind);
  console.log(`${kind} delivery for ${code} requested: ${JSON.stringify(answer)}`);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'trigger') return trigger(process.argv.slice(3));
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      vendor: { type: 'string', default: 'marketplace' },
      token: { type: 'string' },
      seed: { type: 'string', default: '1' },
      webhook: { type: 'string' },
      'returns-webhook': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new TypeError(`--port must be a port number, got ${values.port}`);
  const server = await listen({ port, host: values.host });
  const token = values.token;
  const { mock, handle } = createMockCore({
    baseUrl: server.url,
    vendor: values.vendor,
    seed: Number(values.seed) || 1,
    tokens: token ? { orders: token, products: token, catalog: token, account: token, cps: token } : undefined,
  });
  server.setHandler(handle);
  if (values.webhook) mock.webhooks.register(values.webhook);
  if (values['returns-webhook']) mock.returnWebhooks.register(values['returns-webhook']);

  const placed = [
    mock.orders.create(),
    mock.orders.create({ invoice: true }),
    mock.orders.create({ express: true }),
    mock.orders.create({ courier: 'ACS Courier', set_as_ready_required: false }),
  ];
  console.log(`Mock marketplace listening on ${server.url}`);
  console.log(`Accept: application/vnd.${mock.vendor}+json; version=3.0 (merchant), version=3.2 (catalog, account)`);
  console.log('Tokens:');
  for (const [api, value] of Object.entries(mock.tokens)) console.log(`  ${api.padEnd(9)}${value}`);
  console.log('Orders:');
  for (const order of [...placed, ...mock.orders.list().filter((o) => o.code.startsWith('DEMO-'))]) {
    const notes = [order.express ? 'express' : '', order.invoice ? 'invoice' : '', order.courier ?? 'no courier'].filter(Boolean);
    console.log(`  ${order.code.padEnd(20)}${String(order.state).padEnd(11)}${notes.join(', ')}`);
  }
  // A customer's return of the first order, awaiting the merchant's review (its created event goes out now).
  const pendingReturn = mock.returns.create(placed[0]?.code ?? '', { reason: 'faulty' });
  console.log('Returns:');
  for (const parcel of [pendingReturn, mock.returns.get('DEMO-RETURN')]) {
    if (parcel) console.log(`  ${parcel.return_code.padEnd(20)}${String(parcel.state).padEnd(24)}order ${parcel.order_code}`);
  }
  console.log(`Try: curl -H 'Accept: application/vnd.${mock.vendor}+json; version=3.0' -H 'Authorization: Bearer ${mock.tokens.orders}' ${server.url}/merchants/ecommerce/orders/${placed[0]?.code}`);
  console.log('Ctrl-C to stop.');

  const stop = async () => {
    mock.close();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`emporio-mock: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
