/**
 * `npm run bench` (all but the opt-in ones), or `npm run bench -- webhooks pagination` (a subset),
 * against the built package (the script builds it first).
 * Prints every ratio with its goal, and writes bench/results.json: all of it on a full run (the
 * opt-in rows as last measured), the rows measured on a partial one (the other rows stay).
 * A benchmark that cannot run (a missing build, a failed import) is a FAIL row, not a crash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmt, mergeResults, printTable, type Row, writeResults } from './harness.js';

// The benchmarks measure the built package (`npm run bench` builds it first and runs this with
// bench/tsconfig.json), not the sources the root tsconfig maps `emporio` to; the processes they
// start resolve it the same way.
if (!import.meta.resolve('emporio').includes('/dist/')) {
  console.error('run the benchmarks with `npm run bench`: it builds the package and measures what users install (dist)');
  process.exit(2);
}
process.env.TSX_TSCONFIG_PATH = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

const BENCHMARKS: Record<string, () => Promise<Row[]>> = {
  'request-overhead': async () => (await import('./request-overhead.js')).benchRequestOverhead(),
  pagination: async () => (await import('./pagination.js')).benchPagination(),
  webhooks: async () => (await import('./webhooks.js')).benchWebhooks(),
  'bulk-inventory': async () => (await import('./bulk-inventory.js')).benchBulkInventory(),
  'size-startup': async () => (await import('./size-startup.js')).benchSizeAndStartup(),
  memory: async () => (await import('./memory.js')).benchMemory(),
  types: async () => (await import('./types.js')).benchTypes(),
  hostile: async () => (await import('./hostile.js')).benchHostile(),
  'several-instances': async () => (await import('./several-instances.js')).benchSeveralInstances(),
  feed: async () => (await import('./feed.js')).benchFeed(),
  inbox: async () => (await import('./inbox.js')).benchInbox(),
  instructions: async () => (await import('./instructions.js')).benchInstructions(),
};
/** Run only when named: they need valgrind and take some 15 minutes. */
const OPT_IN = new Set(['instructions']);

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length > 0 ? wanted : Object.keys(BENCHMARKS).filter((name) => !OPT_IN.has(name));

const started = performance.now();
const rows: Row[] = [];
for (const name of selected) {
  const benchStarted = performance.now();
  process.stdout.write(`${name} ... `);
  try {
    const result = await (BENCHMARKS[name] as () => Promise<Row[]>)();
    rows.push(...result);
    console.log(`${fmt.ms(performance.now() - benchStarted)}`);
    for (const row of result) console.log(`  ${row.name}: ${row.measured} vs ${row.baseline} → ${row.ratio.toFixed(2)} (goal ${row.goal})`);
  } catch (error) {
    console.log('could not run');
    console.error(error);
    rows.push({ name, measured: 'not run', baseline: '-', ratio: Number.NaN, goal: '-', pass: false, data: { error: String(error) } });
  }
}
const elapsed = performance.now() - started;
printTable(rows);
console.log(`\n${rows.filter((r) => r.pass === false).length} failing of ${rows.length}; whole run ${fmt.ms(elapsed)}`);
const results = new URL('./results.json', import.meta.url);
if (wanted.length === 0) {
  // A full run leaves the opt-in benchmarks out: their rows stay as last measured, with their date.
  const previous = existsSync(results) ? (JSON.parse(readFileSync(results, 'utf8')) as { results: Row[] }).results : [];
  const optIn = previous.filter((row) => [...OPT_IN].some((name) => row.name.startsWith(`${name}:`)));
  writeResults(results, [...rows, ...optIn], elapsed);
  console.log('wrote bench/results.json');
} else {
  const measured = rows.filter((row) => row.measured !== 'not run');
  mergeResults(results, measured);
  console.log(`updated ${measured.length} row(s) of bench/results.json`);
}
// Keep-alive sockets and timers of the clients must not hold the process open.
process.exit(0);
