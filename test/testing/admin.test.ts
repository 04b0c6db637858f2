/**
 * The mock as a dev loop for any stack: its admin API over plain HTTP (what a PHP or Python
 * backend's tests call with curl), and `emporio-mock` driving a running mock from a shell.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { type OrderUpdatedEvent, parseWebhook } from 'emporio/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';
import { startReceiver } from './helpers.js';

const SECRET = 'f1e2d3c4-b5a6-4978-8a6b-5c4d3e2f1a0b';
const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setUp() {
  const receiver = await startReceiver();
  const running: RunningMockMarketplace = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
  closers.push(receiver.close, running.close);
  return { receiver, running, mock: running.mock };
}

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${base}/__mock/admin${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the admin API's JSON, read as a test reads it
  return { status: answer.status, data: (await answer.json()) as Record<string, any> };
};

describe('the admin API (plain HTTP, no token)', () => {
  it('registers a URL, places an order and moves it through its states, sending the webhooks the service would', async () => {
    const { receiver, running, mock } = await setUp();
    const hook = `${receiver.url}/${SECRET}`;
    expect((await call(running.url, 'POST', '/webhooks', { url: hook })).status).toBe(201);

    const created = await call(running.url, 'POST', '/orders', { invoice: true });
    expect(created.status).toBe(201);
    const code = created.data.order.code as string;
    expect(created.data.order).toMatchObject({ state: 'open', invoice: true });
    const states = [];
    for (const action of ['accept', 'dispatch', 'deliver', 'return']) {
      const moved = await call(running.url, 'POST', `/orders/${code}/${action}`);
      expect(moved.status).toBe(200);
      states.push(moved.data.order.state);
    }
    expect(states).toEqual(['accepted', 'dispatched', 'delivered', 'returned']);
    await mock.webhooks.idle();

    const events = receiver.received.map((delivery) => parseWebhook(delivery.body) as OrderUpdatedEvent);
    // deliver sends nothing: the service names no event for it.
    expect(events.map((event) => [event.event_type, event.changes?.state?.new])).toEqual([
      ['new_order', undefined],
      ['order_updated', 'accepted'],
      ['order_updated', 'dispatched'],
      ['order_updated', 'returned'],
    ]);
    expect(events.every((event) => event.order.code === code)).toBe(true);

    const { data } = await call(running.url, 'GET', '/webhooks');
    expect(data.deliveries).toHaveLength(4);
    expect(JSON.stringify(data)).not.toContain(SECRET);
    expect(data.urls).toEqual([`${receiver.url}/[redacted]`]);
  });

  it('cancel sends the cancellation; a move the state does not allow is 409, an unknown order or action 404', async () => {
    const { running } = await setUp();
    const code = (await call(running.url, 'POST', '/orders')).data.order.code as string;
    expect((await call(running.url, 'POST', `/orders/${code}/cancel`)).data.order.state).toBe('cancelled');
    const refused = await call(running.url, 'POST', `/orders/${code}/accept`);
    expect(refused.status).toBe(409);
    expect(refused.data.error).toContain('cancelled');
    expect((await call(running.url, 'POST', '/orders/NOPE-1/accept')).status).toBe(404);
    expect((await call(running.url, 'POST', `/orders/${code}/refund`)).status).toBe(404);
    expect((await call(running.url, 'POST', `/orders/${code}/toString`)).status).toBe(404);
    expect((await call(running.url, 'POST', '/webhooks', { nope: 1 })).status).toBe(400);
  });
});

/** `emporio-mock` started as a shell starts it; resolves once it listens, with its URL and output so far. */
async function startCli(args: string[]): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  );
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const check = () => (output.includes('Ctrl-C') ? resolve() : undefined);
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
  return { url, output: () => output, child };
}

describe('emporio-mock from a shell', () => {
  it('order create / accept drive a running mock; the mock logs each delivery without the URL secret', async () => {
    // The first order_updated delivery is refused once (500), so its retry is logged too.
    let refusals = 0;
    const receiver: Awaited<ReturnType<typeof startReceiver>> = await startReceiver((index) =>
      receiver.received[index]?.body.includes('order_updated') && refusals++ === 0 ? 500 : 200,
    );
    closers.push(receiver.close);
    const mock = await startCli(['--webhook', `${receiver.url}/${SECRET}`, '--webhook-interval-ms', '20']);

    const created = await runScript(cli, ['order', 'create', '--url', mock.url], { timeoutMs: 20_000 });
    expect(created.code).toBe(0);
    const code = /^(\d{6}-\d{7}) +open/.exec(created.stdout)?.[1] as string;
    expect(code).toBeDefined();
    const accepted = await runScript(cli, ['order', 'accept', code, '--url', mock.url, '--json'], { timeoutMs: 20_000 });
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ code, state: 'accepted' });

    // The four orders the mock places at start are delivered first (their lines come first too).
    const ours = () => mock.output().split('\n').filter((line) => line.includes(` webhook `) && line.includes(code));
    for (let i = 0; i < 150 && ours().length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = ours();
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z webhook new_order ${code} -> ${receiver.url}/\\[redacted\\]: 200 \\(attempt 1 of 4\\)$`)),
      expect.stringMatching(/webhook order_updated .*: 500 \(attempt 1 of 4\)$/),
      expect.stringMatching(/webhook order_updated .*: 200 \(attempt 2 of 4\)$/),
    ]);
    expect(mock.output()).not.toContain(SECRET);

    const refused = await runScript(cli, ['order', 'accept', code, '--url', mock.url], { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409');
  });

  it('--help on every command exits 0 with its usage; a bad option is a usage error (exit 2), not a stack trace', async () => {
    for (const command of [[], ['order'], ['webhook'], ['trigger']]) {
      const help = await runScript(cli, [...command, '--help'], { timeoutMs: 20_000 });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: emporio-mock${command[0] ? ` ${command[0]}` : ''}`));
    }
    const bad = await runScript(cli, ['trigger', '--bogus'], { timeoutMs: 20_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--bogus'");
    expect(bad.stderr).toContain("emporio-mock trigger --help");
    expect(bad.stderr).not.toContain('    at ');
  });
});
