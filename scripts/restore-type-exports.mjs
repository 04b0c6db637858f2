// Runs after tsup (npm run build). tsup's declaration bundler writes `export { Order }` for a name
// that is both a schema (a value) and its type, even where the source exports only the type
// (`export type { Order }`, `export type *`): the .d.ts then promises a value the JavaScript lacks.
// This puts the `type` back on every name each entry's source exports type-only.
// scripts/smoke-packed.mjs checks the result against what import() and require() return.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { entries } from '../tsup.config.ts';
import { declaredExports } from './lib/declared-exports.mjs';

const root = resolve(import.meta.dirname, '..');
const probeDir = resolve(root, '.tmp/exports-probe');

const names = Object.keys(entries);
const specifiers = Object.values(entries).map((source) => `./${relative(probeDir, resolve(root, source)).replace(/\.ts$/, '.js')}`);
const declared = declaredExports(
  probeDir,
  specifiers.map((specifier) => ({ specifier, format: 'esm' })),
);

names.forEach((name, i) => {
  const typeOnly = new Set(declared[i].types);
  for (const file of [`dist/${name}.d.ts`, `dist/${name}.d.cts`]) {
    const path = resolve(root, file);
    const text = readFileSync(path, 'utf8');
    const declarations = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const positions = [];
    for (const statement of declarations.statements) {
      if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.exportClause) continue;
      if (!ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements) {
        if (!element.isTypeOnly && typeOnly.has(element.name.text)) positions.push(element.getStart());
      }
    }
    let fixed = text;
    for (const position of positions.sort((a, b) => b - a)) fixed = `${fixed.slice(0, position)}type ${fixed.slice(position)}`;
    writeFileSync(path, fixed);
    console.log(`${file}: ${positions.length} type-only exports marked`);
  }
});
