import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUDGETS, lazyChunks } from '../../scripts/check-size.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The entry's budget, the one `scripts/check-size.mjs` checks the built package against. */
const BUDGET_KB = BUDGETS.find((budget) => budget.entry === 'emporio/webhooks')?.budgetKb ?? 0;

describe('the emporio/webhooks bundle', () => {
  it('carries no HTTP client, no transport and no node: import, and stays within its size budget', async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['src/webhooks/index.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      // Its tracing is loaded with import() on the first delivery, only with the tracer option: not counted here.
      plugins: [lazyChunks()],
    });
    const inputs = Object.keys(result.metafile.inputs);
    const packages = new Set(inputs.filter((p) => p.includes('node_modules/')).map((p) => p.split('node_modules/').pop()!.split('/')[0]));
    expect([...packages]).toEqual(['zod']);
    expect(inputs.some((p) => /\bnode_modules\/(ky|p-retry)\//.test(p))).toBe(false);
    expect(inputs.filter((p) => p.startsWith('src/') && !/^src\/(webhooks|schemas|core\/(errors|time|bytes|abort)\.ts)/.test(p))).toEqual([]);
    expect(inputs.some((p) => p.startsWith('node:'))).toBe(false);

    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\bfrom\s*["'](node:|ky|p-retry)/);
    expect(code).not.toMatch(/\bHTTPError\b|\bpRetry\b/);

    const gz = gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
    // The figures in the failure's message, not on every passing run's console.
    expect(gz, `emporio/webhooks: ${code.length} bytes minified, ${(gz / 1024).toFixed(2)} KB gzipped (budget ${BUDGET_KB} KB)`).toBeLessThan(BUDGET_KB * 1024);
  });
});
