/**
 * What the published types cost a consumer: `tsc --extendedDiagnostics` on a two-call
 * project compiled against the BUILT declarations in dist/ (the package as installed),
 * with lib checking on, beside a project that imports only zod/mini (the floor any
 * zod-typed package starts from), and the declaration `tsc` emits for the call results.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row } from './harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const GOAL_INSTANTIATIONS = 80_000;

const CONSUMER = `import { MarketplaceClient } from 'emporio';
const client = new MarketplaceClient({ baseUrl: 'https://api.example.gr', vendor: 'example', token: 't' });
export const order = await client.orders.get('261121-1000001');
export const sku = await client.catalog.skus.get(3443837);
`;
const ZOD_ONLY = `import * as z from 'zod/mini';
export const schema = z.string();
`;

/** Instantiations and the emitted declaration of one consumer file. */
function compile(dir: string, name: string, source: string): { instantiations: number; declaration: string } {
  writeFileSync(join(dir, `${name}.ts`), source);
  const config = {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: `out-${name}`,
      skipLibCheck: false,
      types: [],
    },
    files: [`${name}.ts`],
  };
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify(config));
  const output = execFileSync(process.execPath, [tsc, '-p', `tsconfig.${name}.json`, '--extendedDiagnostics'], { cwd: dir, encoding: 'utf8' });
  const instantiations = Number(/Instantiations:\s+(\d+)/.exec(output)?.[1]);
  if (!Number.isFinite(instantiations)) throw new Error(`no instantiation count in tsc's output:\n${output}`);
  return { instantiations, declaration: readFileSync(join(dir, `out-${name}`, `${name}.d.ts`), 'utf8') };
}

export async function benchTypes(): Promise<Row[]> {
  if (!existsSync(join(root, 'dist', 'index.d.ts'))) {
    console.log('\n  dist/ is missing: npm run build');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }
  const dir = mkdtempSync(join(tmpdir(), 'emporio-types-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    mkdirSync(join(dir, 'node_modules'));
    // The package as installed: its exports map and dist/ declarations; zod resolves from beside it.
    symlinkSync(root, join(dir, 'node_modules', 'emporio'), 'dir');
    symlinkSync(join(root, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'), 'dir');
    const consumer = compile(dir, 'consumer', CONSUMER);
    const zodOnly = compile(dir, 'zod-only', ZOD_ONLY);
    const oneLine =
      consumer.declaration.includes('export declare const order: import("emporio").Order;') &&
      consumer.declaration.includes('export declare const sku: import("emporio").Sku;');
    return [
      {
        name: 'types: two-call consumer (tsc instantiations)',
        measured: `${consumer.instantiations}`,
        baseline: `${GOAL_INSTANTIATIONS} goal; zod/mini alone ${zodOnly.instantiations}`,
        ratio: consumer.instantiations / GOAL_INSTANTIATIONS,
        goal: '<= 1.00',
        pass: consumer.instantiations < GOAL_INSTANTIATIONS,
        data: { consumer: consumer.instantiations, zodOnly: zodOnly.instantiations },
      },
      {
        name: 'types: declaration emit of the call results',
        measured: `${consumer.declaration.trim().split('\n').length} lines`,
        baseline: '2 lines (one per result)',
        ratio: consumer.declaration.trim().split('\n').length / 2,
        goal: '<= 1.00',
        pass: oneLine,
        data: { declaration: consumer.declaration },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
