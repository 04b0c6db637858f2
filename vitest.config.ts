import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public name, as users do.
    alias: [
      { find: /^emporio\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^emporio\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^emporio\/testing$/, replacement: src('testing/index.ts') },
      { find: /^emporio\/redis$/, replacement: src('redis/index.ts') },
      { find: /^emporio$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
