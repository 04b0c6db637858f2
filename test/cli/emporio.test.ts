/** `emporio check-keys` as a merchant runs it from a shell: a child process against the kit on loopback. */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { runScript } from '../helpers/run-script.js';

const cli = fileURLToPath(new URL('../../src/cli/emporio.ts', import.meta.url));
const OLD_PRODUCTS_KEY = 'old-products-key-c41d9e';
let kit: RunningMockMarketplace;

beforeAll(async () => {
  kit = await startMockMarketplace({ port: 0, vendor: 'acme' });
});
afterAll(() => kit.close());

/** The command with only what it needs in its environment: no EMPORIO_* variable of the machine running the tests leaks in. */
async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const { code, stdout, stderr } = await runScript(cli, args, { env: { PATH: process.env.PATH ?? '', ...env } });
  return { code, out: stdout, err: stderr };
}

describe('emporio check-keys', () => {
  it('--help names the environment variables the keys are read from', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    for (const name of ['EMPORIO_ORDERS_TOKEN', 'EMPORIO_PRODUCTS_TOKEN', 'EMPORIO_CPS_TOKEN', 'EMPORIO_TOKEN', 'EMPORIO_BASE_URL', 'EMPORIO_VENDOR']) {
      expect(out).toContain(name);
    }
  });

  it('every key accepted: exit 0, one line per key', async () => {
    const { mock } = kit;
    const { code, out, err } = await run(['check-keys', '--base-url', kit.url, '--vendor', 'acme'], {
      EMPORIO_ORDERS_TOKEN: mock.tokens.orders,
      EMPORIO_PRODUCTS_TOKEN: mock.tokens.products,
      EMPORIO_CPS_TOKEN: mock.tokens.cps,
    });
    expect(err).toBe('');
    expect(code).toBe(0);
    for (const api of ['orders', 'products', 'cps']) expect(out).toMatch(new RegExp(`^ {2}${api} +ok +request id req-[0-9a-f]+$`, 'm'));
    for (const token of [mock.tokens.orders, mock.tokens.products, mock.tokens.cps]) expect(out).not.toContain(token);
  });

  it('EMPORIO_TOKEN stands in for each key whose own variable is not set, as in MarketplaceClient.fromEnv', async () => {
    const { code, out } = await run(['check-keys', '--base-url', kit.url, '--vendor', 'acme'], {
      EMPORIO_TOKEN: kit.mock.tokens.orders,
      EMPORIO_PRODUCTS_TOKEN: kit.mock.tokens.products,
    });
    expect(code).toBe(1); // the orders key is not the CPS key
    expect(out).toMatch(/^ {2}orders +ok/m);
    expect(out).toMatch(/^ {2}products +ok/m);
    expect(out).toMatch(/^ {2}cps +refused/m);
  });

  it('EMPORIO_TOKEN with a "Bearer " prefix is checked without it; a base URL over two lines is a usage error', async () => {
    const accepted = await run(['check-keys', '--base-url', kit.url, '--vendor', 'acme'], { EMPORIO_ORDERS_TOKEN: `Bearer ${kit.mock.tokens.orders}` });
    expect(accepted.code).toBe(0);
    expect(accepted.out).toMatch(/^ {2}orders +ok/m);
    expect(accepted.out).not.toContain(kit.mock.tokens.orders);
    const broken = await run(['check-keys', '--vendor', 'acme'], { EMPORIO_BASE_URL: `${kit.url}\n/x`, EMPORIO_ORDERS_TOKEN: kit.mock.tokens.orders });
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('line break');
  });

  it('a key not set is named, not tried', async () => {
    const { code, out } = await run(['check-keys', '--base-url', kit.url, '--vendor', 'acme'], { EMPORIO_ORDERS_TOKEN: kit.mock.tokens.orders });
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}cps +not set \(EMPORIO_CPS_TOKEN\)$/m);
  });

  it('a refused key: exit 1, the key named with the request id, no token printed (base URL and vendor from the environment)', async () => {
    const { mock } = kit;
    const { code, out, err } = await run(['check-keys'], {
      EMPORIO_BASE_URL: kit.url,
      EMPORIO_VENDOR: 'acme',
      EMPORIO_ORDERS_TOKEN: mock.tokens.orders,
      EMPORIO_PRODUCTS_TOKEN: OLD_PRODUCTS_KEY,
    });
    expect(code).toBe(1);
    expect(out).toMatch(/^ {2}orders +ok +request id req-[0-9a-f]+$/m);
    expect(out).toMatch(/^ {2}products +refused +the Products API key was refused: generate a new one in the merchant panel.*\[request id req-[0-9a-f]+\]$/m);
    for (const text of [out, err]) {
      expect(text).not.toContain(OLD_PRODUCTS_KEY);
      expect(text).not.toContain(mock.tokens.orders);
    }
  });

  it('no answer counts as a failure too: exit 1', async () => {
    const { code, out } = await run(['check-keys', '--base-url', 'http://127.0.0.1:9', '--vendor', 'acme', '--timeout', '2000'], {
      EMPORIO_ORDERS_TOKEN: kit.mock.tokens.orders,
    });
    expect(code).toBe(1);
    expect(out).toMatch(/^ {2}orders +failed +connection failed/m);
    expect(out).not.toContain(kit.mock.tokens.orders);
  });

  it('control characters in what it prints are shown escaped, never acted on', async () => {
    const { code, err } = await run(['check\u001b]0;owned\u0007\u009b2J']);
    expect(code).toBe(2);
    expect(err).toContain('unknown command: check\\u001b]0;owned\\u0007\\u009b2J');
    for (const control of ['\u001b', '\u0007', '\u009b']) expect(err).not.toContain(control);
  });

  it.each([
    ['no command', [], {}, /no command given/],
    ['an unknown command', ['check-tokens'], {}, /unknown command: check-tokens/],
    ['no key set', ['check-keys', '--base-url', 'http://127.0.0.1:9', '--vendor', 'acme'], {}, /no key to check: set EMPORIO_ORDERS_TOKEN/],
    ['no base URL', ['check-keys', '--vendor', 'acme'], { EMPORIO_ORDERS_TOKEN: 'k-1234' }, /no base URL/],
    ['a plain-http base URL elsewhere', ['check-keys', '--base-url', 'http://api.example.gr', '--vendor', 'acme'], { EMPORIO_ORDERS_TOKEN: 'k-1234' }, /baseUrl/],
  ])('usage errors exit 2: %s', async (_name, args, env, message) => {
    const { code, err } = await run(args as string[], env as Record<string, string>);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).not.toContain('k-1234');
  });
});
