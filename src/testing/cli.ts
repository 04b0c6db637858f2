#!/usr/bin/env node
/**
 * `emporio-mock`: the mock marketplace on a loopback port, and commands that drive a running one
 * (its admin API, src/testing/admin.ts) from any shell. Every command answers `--help`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MarketplaceClient } from '../client.js';
import { isLoopbackHost } from '../core/options.js';
import { WEBHOOK_TRIGGER_KINDS, type WebhookTriggerKind } from '../resources/orders/index.js';
import { ADMIN_PREFIX, ORDER_ACTIONS } from './admin.js';
import { type ReturnWebhookDelivery, redactedWebhookUrl, type WebhookDelivery } from './events/webhook-sender.js';
import { createMockCore } from './mock.js';
import { listen } from './server.js';

const DEFAULT_URL = 'http://127.0.0.1:4010';

const USAGE = {
  start: `Usage: emporio-mock [--port 4010] [--host 127.0.0.1] [--vendor marketplace] [--token T] [--seed 1]
                    [--webhook URL]... [--returns-webhook URL]... [--webhook-interval-ms 300000]

Starts a mock of the marketplace's merchant, catalog and account APIs on a loopback port, and
prints one line per webhook delivery (its URL without the secret, status, attempt and time).
  --token T                  one bearer token for every API (default: test-orders-token, ...)
  --webhook URL              post order events to URL (repeat for several URLs)
  --returns-webhook URL      post return events to URL (registered apart; repeatable; a return
                             awaiting review is made at start)
  --webhook-interval-ms N    wait between a refused delivery's attempts (default 300000, 5 minutes,
                             like the service; 4 attempts in all)

Commands for a running mock (each takes --help):
  emporio-mock order create|accept|cancel|dispatch|deliver|return ...   place an order, move it
  emporio-mock webhook add|remove|list ...                             the webhook URLs
  emporio-mock trigger <kind> <code>                                   a sandbox test delivery`,
  order: `Usage: emporio-mock order create [--express] [--invoice] [--json] [--url ${DEFAULT_URL}]
       emporio-mock order <action> <code> [--json] [--url ${DEFAULT_URL}]

Places an order in a running mock (new_order is sent to the webhook URLs), or moves one on, sending
the webhooks the service would (order_updated with its changes; deliver sends none, as the service).
  <action>    ${Object.keys(ORDER_ACTIONS).join(', ')}
              (accept takes the first pickup location and window the order offers)
  --express   an express order (the service accepts those itself: use 'accept')
  --invoice   the customer asked for an invoice
  --json      print the order as JSON
Exit status: 0 done; 1 refused (unknown order, or a move its state does not allow); 2 usage.`,
  webhook: `Usage: emporio-mock webhook add <url> [--url ${DEFAULT_URL}]
       emporio-mock webhook remove <url> [--url ${DEFAULT_URL}]
       emporio-mock webhook list [--url ${DEFAULT_URL}]

Registers or removes a webhook URL of a running mock, or lists the URLs and every delivery so far
(URLs without their secret). Only events after 'add' are sent.`,
  trigger: `Usage: emporio-mock trigger <kind> <code> [--url ${DEFAULT_URL}] [--vendor V] [--token T]

Asks a running mock (or the service's sandbox, --url https://...) to send a test delivery for
an order to the registered webhook URL, as the service's sandbox triggers do.
  <kind>         ${WEBHOOK_TRIGGER_KINDS.join(', ')}
  --vendor V     the vendor (default: the running mock's, asked from its admin API; else marketplace)
  --token T      the orders token (default: the running mock's; else test-orders-token)`,
} as const;
type Command = keyof typeof USAGE;

/** A mistake on the command line: its message, then where help is (exit 2). */
class UsageError extends Error {}

/** parseArgs with `--help` on every command, and its errors as usage errors. */
function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: Command, args: string[], options: T) {
  try {
    return parseArgs({ args, allowPositionals: true, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun 'emporio-mock ${command === 'start' ? '' : `${command} `}--help' for usage.`);
  }
}

/** A call to a running mock's admin API; a refusal's `error` becomes the thrown message. */
async function admin(base: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  let answer: Response;
  try {
    answer = await fetch(`${base.replace(/\/+$/, '')}${ADMIN_PREFIX}${path}`, {
      method,
      // The admin API takes every POST and DELETE as JSON (admin-guard.ts), a body or none.
      headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new Error(`no mock at ${base} (${(error as Error).message}); start one with: emporio-mock --port 4010`);
  }
  const data = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
  if (!answer.ok) throw new Error(`${answer.status}: ${String(data.error ?? answer.statusText)}`);
  return data;
}

const orderLine = (order: Record<string, unknown>) =>
  `${String(order.code).padEnd(20)}${String(order.state).padEnd(11)}${order.express ? 'express' : ''}`.trimEnd();

async function order(args: string[]): Promise<void> {
  const { values, positionals } = parse('order', args, {
    url: { type: 'string', default: DEFAULT_URL },
    express: { type: 'boolean' },
    invoice: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (values.help) return console.log(USAGE.order);
  const [action, code, ...extra] = positionals;
  let data: Record<string, unknown>;
  if (action === 'create' && code === undefined) {
    data = await admin(values.url, 'POST', '/orders', { ...(values.express ? { express: true } : {}), ...(values.invoice ? { invoice: true } : {}) });
  } else if (action !== undefined && action in ORDER_ACTIONS && code !== undefined && extra.length === 0) {
    data = await admin(values.url, 'POST', `/orders/${encodeURIComponent(code)}/${action}`);
  } else {
    throw new UsageError(`order takes 'create' or an action and an order code\nRun 'emporio-mock order --help' for usage.`);
  }
  const placed = data.order as Record<string, unknown>;
  console.log(values.json ? JSON.stringify(placed, null, 2) : orderLine(placed));
}

async function webhook(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook', args, { url: { type: 'string', default: DEFAULT_URL } });
  if (values.help) return console.log(USAGE.webhook);
  const [action, target, ...extra] = positionals;
  if ((action === 'add' || action === 'remove') && target !== undefined && extra.length === 0) {
    const { urls } = await admin(values.url, action === 'add' ? 'POST' : 'DELETE', '/webhooks', { url: target });
    console.log(`webhook URLs: ${(urls as string[]).join(', ') || 'none'}`);
  } else if (action === 'list' && target === undefined) {
    const { urls, deliveries } = await admin(values.url, 'GET', '/webhooks');
    console.log(`webhook URLs: ${(urls as string[]).join(', ') || 'none'}`);
    for (const delivery of deliveries as WebhookDelivery[]) console.log(deliveryLine(delivery, 0));
  } else {
    throw new UsageError(`webhook takes add <url>, remove <url> or list\nRun 'emporio-mock webhook --help' for usage.`);
  }
}

/** `trigger <kind> <code>`: calls the sandbox trigger endpoint through the SDK and prints the answer. */
async function trigger(args: string[]): Promise<void> {
  const { values, positionals } = parse('trigger', args, {
    url: { type: 'string', default: DEFAULT_URL },
    vendor: { type: 'string' },
    token: { type: 'string' },
  });
  if (values.help) return console.log(USAGE.trigger);
  const [kind, code, ...extra] = positionals;
  if (kind === undefined || code === undefined || extra.length > 0) {
    throw new UsageError(`trigger takes a kind and an order code\nRun 'emporio-mock trigger --help' for usage.`);
  }
  // A mock on loopback tells its own settings: a mock started with --vendor or --token needs them
  // typed only once. The service's sandbox (https) has no admin API.
  const running = values.vendor === undefined || values.token === undefined ? await mockSettings(values.url) : undefined;
  const vendor = values.vendor ?? running?.vendor ?? 'marketplace';
  const token = values.token ?? running?.tokens?.orders ?? 'test-orders-token';
  const client = new MarketplaceClient({ baseUrl: values.url, vendor, tokens: { orders: token } });
  const answer = await client.orders.triggerWebhook(code, kind as WebhookTriggerKind);
  console.log(`${kind} delivery for ${code} requested: ${JSON.stringify(answer)}`);
}

/** A running mock's vendor and tokens (its admin API), or undefined for anything else at `base`. */
async function mockSettings(base: string): Promise<{ vendor?: string; tokens?: { orders?: string } } | undefined> {
  let host: string;
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:') return undefined;
    host = url.hostname;
  } catch {
    return undefined;
  }
  if (!isLoopbackHost(host)) return undefined;
  try {
    const settings = await admin(base, 'GET', '/settings');
    return typeof settings.vendor === 'string' ? (settings as { vendor: string; tokens?: { orders?: string } }) : undefined;
  } catch {
    return undefined;
  }
}

/** One delivery attempt as the log shows it: the URL without its secret. */
function deliveryLine(delivery: WebhookDelivery | ReturnWebhookDelivery, maxAttempts: number): string {
  const outcome = delivery.status === undefined ? (delivery.error ?? 'failed') : String(delivery.status);
  const attempt = maxAttempts > 0 ? `attempt ${delivery.attempt} of ${maxAttempts}` : `attempt ${delivery.attempt}`;
  return `${new Date(delivery.at).toISOString()} webhook ${delivery.event_type} ${'order_code' in delivery ? delivery.order_code : delivery.return_code} -> ${redactedWebhookUrl(delivery.url)}: ${outcome} (${attempt}${delivery.resend ? ', resend' : ''})`;
}

async function start(args: string[]): Promise<void> {
  const { values, positionals } = parse('start', args, {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    vendor: { type: 'string', default: 'marketplace' },
    token: { type: 'string' },
    seed: { type: 'string', default: '1' },
    webhook: { type: 'string', multiple: true },
    'returns-webhook': { type: 'string', multiple: true },
    'webhook-interval-ms': { type: 'string', default: '300000' },
  });
  if (values.help) return console.log(USAGE.start);
  if (positionals.length > 0) throw new UsageError(`unknown command: ${positionals.join(' ')}\nRun 'emporio-mock --help' for usage.`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, got ${values.port}`);
  const interval = Number(values['webhook-interval-ms']);
  if (!Number.isSafeInteger(interval) || interval < 0) throw new UsageError(`--webhook-interval-ms must be a whole number of ms, got ${values['webhook-interval-ms']}`);
  if (!isLoopbackHost(values.host)) {
    console.error(
      `emporio-mock: warning: listening on ${values.host}, not loopback: other machines can reach the mock and its admin API, which takes no token`,
    );
  }
  const server = await listen({ port, host: values.host });
  const token = values.token;
  const maxAttempts = 4;
  const { mock, handle } = createMockCore({
    baseUrl: server.url,
    vendor: values.vendor,
    seed: Number(values.seed) || 1,
    tokens: token ? { orders: token, products: token, catalog: token, account: token, cps: token } : undefined,
    webhookIntervalMs: interval,
    webhookMaxAttempts: maxAttempts,
  });
  server.setHandler(handle);
  mock.webhooks.onDelivery((delivery) => console.log(deliveryLine(delivery, maxAttempts)));
  for (const url of values.webhook ?? []) mock.webhooks.register(url);
  mock.returnWebhooks.onDelivery((delivery) => console.log(deliveryLine(delivery, maxAttempts)));
  for (const url of values['returns-webhook'] ?? []) mock.returnWebhooks.register(url);

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
  console.log(`Webhooks: ${mock.webhooks.urls.map(redactedWebhookUrl).join(', ') || `none (emporio-mock webhook add <url> --url ${server.url})`}`);
  console.log(`Try: curl -H 'Accept: application/vnd.${mock.vendor}+json; version=3.0' -H 'Authorization: Bearer ${mock.tokens.orders}' ${server.url}/merchants/ecommerce/orders/${placed[0]?.code}`);
  console.log(`Admin: curl -X POST -H 'Content-Type: application/json' ${server.url}${ADMIN_PREFIX}/orders   (emporio-mock order --help)`);
  console.log('Ctrl-C to stop.');

  const stop = async () => {
    mock.close();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = { order, webhook, trigger };

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === 'help') return console.log(USAGE[(rest[0] ?? 'start') as Command] ?? USAGE.start);
  const command = first === undefined ? undefined : COMMANDS[first];
  return command ? command(rest) : start(argv);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`emporio-mock: ${(error as Error)?.message ?? String(error)}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
