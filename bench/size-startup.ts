/**
 * 5. Bundle size of each entry (scripts/check-size.mjs: minified + gzipped, with its
 * dependencies) against its budget, and start-up in fresh processes: the built root entry
 * against importing its two heavy dependencies (zod/mini and ky) alone, and the webhooks
 * entry against an empty node start.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkSizes } from '../scripts/check-size.mjs';
import { compare, fmt, type Row } from './harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SPAWNS = 15;

export async function benchSizeAndStartup(): Promise<Row[]> {
  if (!existsSync(`${root}/dist/index.js`) || !existsSync(`${root}/dist/webhooks.js`)) {
    console.log('\n  dist/ is missing: npm run build');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }
  const sizes = await checkSizes();
  const rows: Row[] = sizes.map((r) => ({
    name: `size ${r.entry} (min+gz)`,
    measured: `${r.gzipKb.toFixed(1)} KB`,
    baseline: `${r.budgetKb} KB budget`,
    ratio: r.gzipKb / r.budgetKb,
    goal: '<= 1.00',
    pass: r.ok,
    data: { ...r },
  }));

  const spawn = (args: string[]) => () => {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  };
  const entry = new URL('../dist/index.js', import.meta.url).href;
  const webhooksEntry = new URL('../dist/webhooks.js', import.meta.url).href;
  const importOf = (...specifiers: string[]) =>
    spawn(['--input-type=module', '-e', specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ')]);
  // Interleaved fresh processes: the package, its two heavy dependencies alone, the webhooks
  // entry, and an empty node start.
  const startup = await compare(
    {
      import: importOf(entry),
      deps: importOf('zod/mini', 'ky'),
      webhooks: importOf(webhooksEntry),
      zod: importOf('zod/mini'),
      empty: spawn(['-e', '']),
    },
    { warmup: 1, rounds: SPAWNS },
  );
  const added = startup.import - startup.empty;
  rows.push({
    name: 'start-up: import emporio vs zod/mini + ky',
    measured: fmt.ms(startup.import),
    baseline: `${fmt.ms(startup.deps)} zod/mini + ky`,
    ratio: startup.import / startup.deps,
    goal: '<= 1.10',
    pass: startup.import / startup.deps <= 1.1,
    data: { importMs: startup.import, depsMs: startup.deps, emptyMs: startup.empty, addedMs: added, samples: startup.samples },
  });
  const webhooksAdded = startup.webhooks - startup.empty;
  rows.push({
    name: 'start-up: import emporio/webhooks over empty node',
    measured: `+${fmt.ms(webhooksAdded)}`,
    // zod/mini alone, for context: the entry carries the part of it the webhook schemas use, bundled.
    baseline: `${fmt.ms(startup.empty)} empty node; zod/mini alone +${fmt.ms(startup.zod - startup.empty)}`,
    ratio: webhooksAdded / 45,
    goal: '<= 1.00',
    pass: webhooksAdded <= 45,
    data: { webhooksMs: startup.webhooks, zodMs: startup.zod, emptyMs: startup.empty, addedMs: webhooksAdded },
  });
  return rows;
}
