/**
 * Two webhook handler processes sharing one Redis: the mock marketplace delivers every
 * order event to both (as a load balancer plus the service's retries would), and each
 * event is handled by exactly one of them.
 *
 *   redis-server --port 6379 --save ''          # in another terminal, or point REDIS_URL elsewhere
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/webhook-cluster.ts
 *
 * Stop Redis while it runs and the handlers go on: each delivery is then handled at least
 * once (both may handle it), and the fall back is logged.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { redisStores } from 'emporio/redis';
import { startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
type Message = { port: number } | { handled: string; pid: number };

if (process.env.CLUSTER_HANDLER) {
  // One instance of the app: its own HTTP server, the dedupe state on the shared Redis.
  const redis = createClient({ url: redisUrl });
  redis.on('error', () => {}); // it reconnects on its own; the stores log the fall back
  await redis.connect();
  const { dedupe } = redisStores(redis, { prefix: 'webhook-cluster:' });
  const handler = createWebhookHandler({
    urlSecret: false,
    // The mock sends from loopback; a real deployment keeps the default source ranges.
    allowedRanges: ['127.0.0.0/8', '::1/128'],
    dedupe,
    onEvent: async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the app's work
      process.send?.({ handled: `${event.event_type} ${event.order?.code}`, pid: process.pid } satisfies Message);
    },
  });
  const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port } satisfies Message);
  });
  process.on('disconnect', () => {
    server.close();
    redis.destroy();
  });
} else {
  await checkRedis();
  const mock = await startMockMarketplace({ port: 0, seedDemoOrders: false, webhookIntervalMs: 100 });
  const handled: string[] = [];
  const instances = [0, 1].map(() => fork(new URL(import.meta.url).pathname, [], { env: { ...process.env, CLUSTER_HANDLER: '1' } }));
  await Promise.all(
    instances.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.on('message', (message: Message) => {
            if ('port' in message) {
              mock.mock.webhooks.register(`http://127.0.0.1:${message.port}/webhooks`);
              resolve();
            } else {
              handled.push(message.handled);
              console.log(`process ${message.pid} handled ${message.handled}`);
            }
          });
        }),
    ),
  );

  for (let i = 0; i < 5; i++) mock.mock.orders.create();
  await mock.mock.webhooks.idle();
  const deliveries = mock.mock.webhooks.deliveries.length;
  console.log(`${deliveries} deliveries to ${instances.length} processes, ${handled.length} events handled (5 orders)`);
  for (const child of instances) child.disconnect();
  await mock.close();
}

/**
 * Redis answers within a few seconds, or the example stops and says what is missing (a client
 * that cannot connect would otherwise retry for ever, silently).
 */
async function checkRedis(): Promise<void> {
  const probe = createClient({ url: redisUrl, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  probe.on('error', () => {}); // the failure is the connect's rejection below
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      probe.connect().then(() => probe.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
      }),
    ]);
  } catch (error) {
    console.error(`webhook-cluster: no Redis at ${redisUrl} (${(error as Error).message || String(error)}).`);
    console.error("Start one with: redis-server --port 6379 --save ''   (or set REDIS_URL to yours)");
    process.exit(1);
  } finally {
    clearTimeout(timer);
    probe.destroy();
  }
}
