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
// The CHANGELOG keeps the form of Keep a Changelog: one Unreleased section above the released versions
// (`## [1.2.0] - 2027-01-31`), its entries under the six kinds of change (`####` groups within them).
const KINDS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);
const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8').split('\n');
const versions = changelog.filter((line) => line.startsWith('## '));
if (versions[0] !== '## [Unreleased]') found.push(`CHANGELOG.md: its first section must be "## [Unreleased]", not ${JSON.stringify(versions[0])}`);
for (const line of versions.slice(1)) {
  if (!/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/.test(line)) found.push(`CHANGELOG.md: a released version is "## [x.y.z] - YYYY-MM-DD": ${line}`);
}
for (const line of changelog.filter((l) => l.startsWith('### '))) {
  if (!KINDS.has(line.slice(4))) found.push(`CHANGELOG.md: "${line}" is none of ${[...KINDS].join(', ')}`);
}
if (versions.length === 1 && changelog.some((line) => /\bBreaking\b/.test(line))) {
  found.push('CHANGELOG.md: nothing is published yet, so nothing can break: describe the change as it is');
}

if (found.length > 0) {
  console.error(`Internal references in user-facing text (name the service's documentation page, or say it in words), or a CHANGELOG out of form:\n${found.join('\n')}`);
  process.exit(1);
}
console.log(`no internal references in ${files.length} user-facing files; CHANGELOG.md in Keep a Changelog form`);
