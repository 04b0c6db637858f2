/** examples/feed.ts as a user runs it (`npx tsx examples/feed.ts`), bounded in time. */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';

it('feed writes a gzip feed from an async source, serves it to the crawler, checks it clean and answers 304 to an unchanged visit', async () => {
  const { code, stdout, stderr } = await runScript(fileURLToPath(new URL('../../examples/feed.ts', import.meta.url)));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toMatch(/wrote 1000 products to .*feed\.xml\.gz \(\d+ bytes gzip\); left out: SKU-1 \(duplicate_id\)/);
  expect(stdout).toMatch(/checked http:\/\/127\.0\.0\.1:\d+\/feed\.xml: 1000 products, 0 errors, 0 warnings/);
  expect(stdout).toContain("the crawler's next visit of an unchanged feed: 304");
  expect(stdout).toContain('"price":5991');
  expect(stdout).toContain('shop_analytics("ecommerce", "addItem"');
}, 60_000);
