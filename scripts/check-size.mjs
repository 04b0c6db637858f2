// Minified + gzipped size of each public entry bundled with its dependencies,
// against its budget. Exits non-zero when an entry passes its budget.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const BUDGETS = [
  { entry: 'emporio', file: 'dist/index.js', budgetKb: 40 },
  { entry: 'emporio/webhooks', file: 'dist/webhooks.js', budgetKb: 12 },
];

export async function measureEntry(file) {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function checkSizes() {
  const rows = [];
  for (const { entry, file, budgetKb } of BUDGETS) {
    const { minBytes, gzipBytes } = await measureEntry(file);
    rows.push({ entry, minKb: minBytes / 1024, gzipKb: gzipBytes / 1024, budgetKb, ok: gzipBytes / 1024 <= budgetKb });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await checkSizes();
  for (const r of rows) {
    console.log(`${r.ok ? 'ok  ' : 'OVER'} ${r.entry.padEnd(18)} ${r.gzipKb.toFixed(1).padStart(6)} KB gz (min ${r.minKb.toFixed(1)} KB)  budget ${r.budgetKb} KB`);
  }
  if (rows.some((r) => !r.ok)) process.exit(1);
}
