// What modules' declarations promise: every exported name, and which of them a user may use as a
// value. Asked the way a user meets it: a probe file imports each name and uses it as a value, and
// the names the compiler refuses there are the type-only ones.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Compiler answers that mean "a type, not a value" (only a type, `export type`, a namespace). */
const NOT_A_VALUE = new Set([2693, 1361, 1362, 2708]);

const baseOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
};

/**
 * @param {string} dir  where the probes are written; each imports its specifier from there.
 * @param {{ specifier: string, format: 'esm' | 'cjs' }[]} modules  imported from an ES module
 *   (.mts) or a CommonJS one (.cts), which picks the `import` or `require` condition.
 * @param {object} [compilerOptions]  e.g. `typeRoots` where @types/node is.
 * @returns {{ all: string[], values: string[], types: string[] }[]} sorted names, one per module.
 */
export function declaredExports(dir, modules, compilerOptions = {}) {
  const options = { ...baseOptions, ...compilerOptions };
  mkdirSync(dir, { recursive: true });
  const probes = modules.map(({ format }, i) => join(dir, `probe-${process.pid}-${i}.${format === 'esm' ? 'mts' : 'cts'}`));
  try {
    probes.forEach((probe, i) => {
      writeFileSync(probe, `import * as entry from ${JSON.stringify(modules[i].specifier)};\nvoid entry;\n`);
    });
    const first = ts.createProgram(probes, options);
    const names = probes.map((probe, i) => {
      const statement = first.getSourceFile(probe).statements[0];
      const moduleSymbol = first.getTypeChecker().getSymbolAtLocation(statement.moduleSpecifier);
      if (!moduleSymbol) throw new Error(`${modules[i].specifier}: no declarations found from ${dir}`);
      return first
        .getTypeChecker()
        .getExportsOfModule(moduleSymbol)
        .map((symbol) => symbol.name)
        .filter((name) => name !== 'default')
        .sort();
    });

    // Line k + 2 of a probe uses its module's k-th name as a value, under a name of its own: an
    // imported type named like a global value (`Location`, `Notification`) would otherwise let
    // `void Location` reach the global and pass for a value.
    probes.forEach((probe, i) => {
      const specifier = JSON.stringify(modules[i].specifier);
      const imports = names[i].map((n, k) => `${n} as probe${k}`).join(', ');
      writeFileSync(probe, `import { ${imports} } from ${specifier};\n${names[i].map((_, k) => `void probe${k};`).join('\n')}\n`);
    });
    const second = ts.createProgram(probes, options, undefined, first);
    return probes.map((probe, i) => {
      const all = names[i];
      const sourceFile = second.getSourceFile(probe);
      const types = new Set();
      for (const diagnostic of second.getSemanticDiagnostics(sourceFile)) {
        const line = sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
        const name = all[line - 1];
        if (line === 0 || name === undefined || !NOT_A_VALUE.has(diagnostic.code)) {
          const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
          throw new Error(`${modules[i].specifier}: unexpected error in the probe: ${message}`);
        }
        types.add(name);
      }
      return { all, values: all.filter((n) => !types.has(n)), types: all.filter((n) => types.has(n)) };
    });
  } finally {
    for (const probe of probes) rmSync(probe, { force: true });
  }
}
