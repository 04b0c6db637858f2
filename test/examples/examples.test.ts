/** The demo, the FBS, OAuth and webhook-cluster examples run against the mock (as a user runs them: `npx tsx examples/<name>.ts`), bounded in time. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';
import { type RedisServer, redisServerMissing, startRedisServer } from '../redis/redis-server.js';

const runExample = (name: string) =>
  runScript(fileURLToPath(new URL(`../../examples/${name}`, import.meta.url)), [], { env: { ...process.env, EMPORIO_BASE_URL: '' } });

it('demo (npm run demo): orders through the inbox while the order system is down, a return approved from the returns webhook, and a batch waited for, in seconds', async () => {
  const started = Date.now();
  const { code, stdout } = await runExample('demo.ts');
  expect(code).toBe(0);
  expect(stdout).toMatch(/webhook: return R-\d{6}-\d{7} asked \(faulty: .*\); approved, of \d+ options/);
  expect(stdout).toMatch(/webhook: return R-\d{6}-\d{7} pending_merchant_review → returning/);
  expect(stdout).toMatch(/batch [0-9a-f]{24}: applied SKU-\d+; unchanged SKU-\d+; failed UNKNOWN-\d+ \(.+\)/);
  // The order system was down at first: every event came through the inbox's retries, none lost.
  const [, handled, failed] = /(\d+) webhook events handled \((\d+) attempts failed while the order system was down/.exec(stdout) ?? [];
  expect(Number(failed)).toBeGreaterThan(0);
  expect(stdout).toContain(`${handled} deliveries to the secret URLs answered 200`);
  expect(stdout.match(/accepted, pickup/g)).toHaveLength(3);
  expect(Date.now() - started).toBeLessThan(30_000);
}, 60_000);

it('fbs-restock orders the low-stock products and lists the purchase order’s line items', async () => {
  const { code, stdout, stderr } = await runExample('fbs-restock.ts');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toMatch(/purchase order \d{6}-\d{4}-\d{4} from ubersuppliername/);
  expect(stdout).toContain('SKU-100: expected 18, counted (not yet received)');
  expect(stdout).not.toContain('SKU-200: expected');
  expect(stdout).toContain('received SKU-300: counted 20');
  expect(stdout).toMatch(/stock after receipt: .*SKU-100=20/);
}, 60_000);

it('oauth-catalog reads the catalog with an application token and renews an expired user token', async () => {
  const { code, stdout, stderr } = await runExample('oauth-catalog.ts');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('application tokens issued: 1');
  expect(stdout).toMatch(/new user token stored \(lives 60 s\)\nfavorites after the token expired: \d+/);
}, 60_000);

it('webhook-cluster without a reachable Redis stops within seconds and says what is missing', async () => {
  // A loopback port nobody listens on: connections are refused at once.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const redisUrl = `redis://127.0.0.1:${port}`;
  const { code, stdout, stderr } = await runScript(fileURLToPath(new URL('../../examples/webhook-cluster.ts', import.meta.url)), [], {
    env: { ...process.env, REDIS_URL: redisUrl },
    timeoutMs: 30_000,
  });
  expect(code).toBe(1);
  expect(stderr).toContain(`webhook-cluster: no Redis at ${redisUrl}`);
  expect(stderr).toContain('redis-server');
  expect(stdout).toBe('');
}, 45_000);

describe.skipIf(redisServerMissing !== undefined)('webhook-cluster (needs redis-server)', () => {
  let redis: RedisServer | undefined;
  afterEach(async () => {
    await redis?.stop();
  });

  it('two handler processes on one Redis, every event delivered to both, each handled once', async () => {
    redis = await startRedisServer();
    const { code, stdout, stderr } = await runScript(fileURLToPath(new URL('../../examples/webhook-cluster.ts', import.meta.url)), [], {
      env: { ...process.env, REDIS_URL: redis.url },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const summary = /(\d+) deliveries to 2 processes, (\d+) events handled \(5 orders\)/.exec(stdout);
    expect(summary).not.toBeNull();
    const [deliveries, handled] = [Number(summary?.[1]), Number(summary?.[2])];
    // One new-order event per order, sent to both processes (and again after a 409 "still being handled").
    expect(handled).toBe(5);
    expect(deliveries).toBeGreaterThanOrEqual(2 * handled);
    const events = [...stdout.matchAll(/process (\d+) handled (.+)/g)];
    expect(events).toHaveLength(handled);
    expect(new Set(events.map((event) => event[2])).size).toBe(handled);
  }, 60_000);
});

describe('order-inbox', () => {
  const orderInbox = fileURLToPath(new URL('../../examples/order-inbox.ts', import.meta.url));

  it('Redis not reachable: fails within a few seconds with a message that says so (and no password)', async () => {
    const started = Date.now();
    const { code, stdout, stderr } = await runScript(orderInbox, [], { env: { ...process.env, REDIS_URL: 'redis://:example-secret@127.0.0.1:1' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Redis is not reachable at redis:\/\/\*\*\*@127\.0\.0\.1:1 .*start redis-server, or set REDIS_URL\.$/m);
    expect(stdout + stderr).not.toContain('example-secret');
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  describe.skipIf(redisServerMissing !== undefined)('with redis-server', () => {
    let redis: RedisServer | undefined;
    afterEach(async () => {
      await redis?.stop();
    });

    it('every delivery answered 200 while the order system is down; each order handled once it is back', async () => {
      redis = await startRedisServer({ appendonly: true });
      const { code, stdout, stderr } = await runScript(orderInbox, [], { env: { ...process.env, REDIS_URL: redis.url } });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('3 deliveries answered 200 while the order system was down');
      expect(stdout).toMatch(/event \d+: attempt 1 failed \(order system down\); retried later/);
      expect([...stdout.matchAll(/^ {2}\d{6}-\d{7}: accepted \(attempt \d+\)$/gm)]).toHaveLength(3);
      expect(stdout).toContain('3 orders handled once it was back; dead letters: 0');
    }, 60_000);
  });
});
