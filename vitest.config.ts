import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

/** Where answers are checked: run again where code generation is forbidden (edge workers), so the checks fall to zod. */
const ANSWER_CHECKS = ['test/core/drift.test.ts', 'test/webhooks/parse.test.ts', 'test/integration/real-service.test.ts'];
const NO_CODE_GENERATION = 'test/schemas/no-code-generation.test.ts';
/**
 * `npm run test:slow` (CI runs it too): suites that start processes (the CLIs, the examples, several
 * instances on one Redis) or run for many seconds; `npm test` keeps the rest (the goal: about 90 s on 2
 * cores). Those mostly wait (timers, loopback sockets), so `npm test` runs 4 workers whatever the cores:
 * about 50 s on 2 where Vitest's default (one worker there) took 110.
 */
const SLOW = [
  'test/redis/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/testing/cli.test.ts',
  'test/testing/admin-cli.test.ts',
  'test/reliability/chaos.test.ts',
];

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public name, as users do.
    alias: [
      { find: /^emporio\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^emporio\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^emporio\/testing$/, replacement: src('testing/index.ts') },
      { find: /^emporio\/redis$/, replacement: src('redis/index.ts') },
      { find: /^emporio\/feed$/, replacement: src('feed/index.ts') },
      { find: /^emporio\/orders-tracker$/, replacement: src('orders-tracker/index.ts') },
      { find: /^emporio$/, replacement: src('index.ts') },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [NO_CODE_GENERATION, ...SLOW] } },
      { extends: true, test: { name: 'slow', include: SLOW } },
      {
        extends: true,
        test: {
          name: 'no-code-generation',
          include: [NO_CODE_GENERATION, ...ANSWER_CHECKS],
          pool: 'forks',
          execArgv: ['--disallow-code-generation-from-strings'],
        },
      },
    ],
  },
});
