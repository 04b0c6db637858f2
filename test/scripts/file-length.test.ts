/**
 * Source files stay under 500 lines (the contributing guide): past that, a file is split by concern
 * into sibling modules. The check reads every file under src/ as the repository holds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const LIMIT = 500;
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(m|c)?[jt]s$/.test(entry.name) ? [path] : [];
  });
}

const lengths = sourceFiles(join(root, 'src')).map((path) => {
  const text = readFileSync(path, 'utf8');
  // Lines as editors and `wc -l` count them: a final newline ends the last line rather than starting one.
  const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return { file: relative(root, path).split('\\').join('/'), lines };
});

describe('source file length', () => {
  it(`keeps every file under src/ at ${LIMIT} lines or fewer`, () => {
    expect(lengths.length).toBeGreaterThan(100);
    const tooLong = lengths.filter(({ lines }) => lines > LIMIT).map(({ file, lines }) => `${file} (${lines} lines)`);
    expect(tooLong, 'split these by concern into sibling modules').toEqual([]);
  });
});
