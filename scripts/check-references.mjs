// User-facing text speaks of the service and its documentation pages, never of this project's
// internal papers ("document 1", "spec/4 section 7", "issue 8"): the README, the user docs that
// ship, and the published declarations (whose doc comments editors show on hover). Run after
// `npm run build` (the declarations are checked when dist/ exists).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const INTERNAL = /\b(documents? [1-6]|doc[ -][1-6]|spec\/[1-6]|spec rule \d|issue \d+)\b/gi;

const dist = join(root, 'dist');
const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...(existsSync(dist) ? readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name)).map((name) => `dist/${name}`) : []),
];

const found = [];
for (const file of files) {
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const match of line.matchAll(INTERNAL)) found.push(`${file}:${i + 1}: "${match[0]}" in: ${line.trim().slice(0, 140)}`);
    });
}
if (found.length > 0) {
  console.error(`Internal references in user-facing text (name the service's documentation page, or say it in words):\n${found.join('\n')}`);
  process.exit(1);
}
console.log(`no internal references in ${files.length} user-facing files`);
