import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/** The package's entries (dist/<name>.js, .cjs, .d.ts, .d.cts); package.json's exports map names them. */
export const entries = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  'testing-msw': 'src/testing/msw.ts',
  redis: 'src/redis/index.ts',
  feed: 'src/feed/index.ts',
  'orders-tracker': 'src/orders-tracker/index.ts',
};

/** ESM-only dependencies: Node 20 before 20.19 cannot require() them, so the CommonJS build carries them. */
const esmOnly = ['ky'];
/**
 * zod is carried by both builds, tree-shaken to what the schemas use: Node then loads one chunk
 * instead of zod's ninety-odd modules (its 64 locales among them) (the webhooks entry starts in a fifth of the time), and
 * users install no zod (the published declarations do not mention it either).
 */
const bundled = ['zod'];

const shared: Options = {
  entry: entries,
  dts: true,
  // One shared chunk per format, so `emporio` and `emporio/webhooks` hand out the same error classes.
  splitting: true,
  // Maps point at the sources by path and line; the sources themselves are not shipped.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  target: 'node20',
  treeshake: true,
};

export default defineConfig(() => {
  // Both builds write into dist/ at the same time, so neither may clean it: it is emptied once, here.
  rmSync('dist', { recursive: true, force: true });
  return [
    // The bins (`emporio-mock`, `emporio`) are ESM only: package.json's bin names dist/cli.js and dist/emporio-cli.js.
    {
      ...shared,
      format: 'esm',
      entry: { ...entries, cli: 'src/testing/cli.ts', 'emporio-cli': 'src/cli/emporio.ts' },
      dts: { entry: entries },
      noExternal: bundled,
    },
    { ...shared, format: 'cjs', noExternal: [...esmOnly, ...bundled] },
  ];
});
