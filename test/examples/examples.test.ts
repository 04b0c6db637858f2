/** The FBS and OAuth examples run against the mock (as a user runs them: `npx tsx examples/<name>.ts`), bounded in time. */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';

const runExample = (name: string) =>
  runScript(fileURLToPath(new URL(`../../examples/${name}`, import.meta.url)), [], { env: { ...process.env, EMPORIO_BASE_URL: '' } });

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
