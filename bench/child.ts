/**
 * Runs one export of a benchmark module in this fresh process (forked by `inFreshProcesses`)
 * and sends what it resolves to back to the parent.
 */
export {};

const [file, exportName] = process.argv.slice(2) as [string, string];
const exports = (await import(file)) as Record<string, () => Promise<unknown>>;
const measure = exports[exportName];
if (typeof measure !== 'function') throw new Error(`${file} has no export ${exportName}`);
const result = await measure();
process.send?.(result, () => process.exit(0));
