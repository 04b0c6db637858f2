import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
    cli: 'src/testing/cli.ts',
    'emporio-cli': 'src/cli/emporio.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // One shared chunk per format, so `emporio` and `emporio/webhooks` hand out the same error classes.
  splitting: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  treeshake: true,
});
