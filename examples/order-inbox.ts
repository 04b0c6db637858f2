/**
 * Never miss an order: the webhook handler appends each delivery to an inbox on Redis and answers
 * 200 at once; a processInbox worker hands the events to the order system, and retries them while
 * it is down (here: for its first one and a half seconds), long after the service would have given up.
 *
 *   redis-server --port 6379 --appendonly yes    # in another terminal, or point REDIS_URL elsewhere
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/order-inbox.ts
 *
 * In production the handler and the workers are usually separate processes (any number of each).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { MarketplaceClient } from 'emporio';
import { redisStores } from 'emporio/redis';
import { startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, processInbox, toNodeHandler } from 'emporio/webhooks';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const shownUrl = redisUrl.replace(/\/\/[^@/]*@/, '//***@'); // a password in the URL is never printed

// 1. Redis: give up within a few seconds rather than retrying for ever.
const redis = createClient({ url: redisUrl, socket: { connectTimeout: 3_000, reconnectStrategy: (retries) => (retries >= 2 ? new Error('gave up') : 200) } });
redis.on('error', () => {}); // connect() below reports the failure
try {
  await redis.connect();
} catch (error) {
  console.error(`Redis is not reachable at ${shownUrl} (${(error as Error).message}): start redis-server, or set REDIS_URL.`);
  process.exit(1);
}
redis.on('error', (error) => console.error(`redis: ${error.message}`));

// 2. The mock marketplace and the merchant's client.
const marketplace = await startMockMarketplace({ port: 0, seedDemoOrders: false, webhookIntervalMs: 50 });
const client = new MarketplaceClient({ baseUrl: marketplace.url, vendor: marketplace.mock.vendor, tokens: marketplace.mock.tokens });

// 3. The receiver: every delivery that passes the checks goes to the inbox, answered 200 once stored.
// A prefix of this run's own: the inbox remembers completed deliveries for a day.
const { inbox } = redisStores(redis, { prefix: `order-inbox-example-${Date.now()}:` });
const handler = createWebhookHandler({ inbox, urlSecret: false, allowedRanges: ['127.0.0.0/8', '::1/128'] });
const receiver = createServer(toNodeHandler(handler));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
marketplace.mock.webhooks.register(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`);

// 4. The worker: the order system is down for its first one and a half seconds.
const downUntil = Date.now() + 1_500;
const handled: string[] = [];
const stop = new AbortController();
const worker = processInbox({
  inbox,
  signal: stop.signal,
  retryDelayMs: 250, // 1 s by default, doubling up to 10 minutes
  retryForMs: 60_000, // 24 hours by default; then a dead letter (emporio inbox list)
  onError: (error, { id, attempts }) => console.log(`  event ${id}: attempt ${attempts} failed (${error.message}); retried later`),
  onEvent: async (event, { attempt }) => {
    if (Date.now() < downUntil) throw new Error('order system down');
    if (event.event_type !== 'new_order') return;
    const order = await client.orders.get(event.order?.code ?? '');
    const location = order.accept_options?.pickup_location?.[0];
    const window = order.accept_options?.pickup_window?.[0];
    if (location?.id != null && window?.id != null) await client.orders.accept(order.code, { pickup_location: location.id, pickup_window: window.id });
    handled.push(order.code);
    console.log(`  ${order.code}: ${location?.id != null ? 'accepted' : 'left for the panel'} (attempt ${attempt})`);
  },
});

// 5. Three orders arrive while the order system is down.
for (let i = 0; i < 3; i++) marketplace.mock.orders.create();
await marketplace.mock.webhooks.idle();
const answers = marketplace.mock.webhooks.deliveries.map((delivery) => delivery.status);
console.log(`${answers.length} deliveries answered ${[...new Set(answers)].join(', ')} while the order system was down`);
for (let waited = 0; handled.length < 3 && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
// Accepting sends order_updated events: they go through the inbox too.
await marketplace.mock.webhooks.idle();
console.log(`${handled.length} orders handled once it was back; dead letters: ${(await inbox.deadLetters()).length}`);

stop.abort();
await worker;
receiver.close();
await marketplace.close();
redis.destroy();
// The client's keep-alive sockets would hold the process open for a few seconds more.
process.exit(handled.length === 3 ? 0 : 1);
