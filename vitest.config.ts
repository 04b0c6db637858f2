import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

/** Where answers are checked: run again where code generation is forbidden (edge workers), so the checks fall to zod. */
const ANSWER_CHECKS = ['test/core/drift.test.ts', 'test/webhooks/parse.test.ts', 'test/integration/real-service.test.ts'];
const NO_CODE_GENERATION = 'test/schemas/no-code-generation.test.ts';
/**
 * `npm run test:slow` (CI runs it too): suites that start processes (the CLIs, the examples, several
 * instances on one Redis, the endpoint map's compiler) or run for many seconds; `npm test` keeps the rest
 * (the goal: at most 90 s on 2 cores while another process keeps one busy).
 */
const SLOW = [
  'test/redis/**/*.test.ts',
  'test/examples/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/testing/cli.test.ts',
  'test/testing/admin-cli.test.ts',
  'test/reliability/chaos.test.ts',
  'test/scripts/**/*.test.ts',
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
    // One worker per core, and at least two: the suites mostly wait (timers, loopback sockets), so a
    // second worker on one core still helps, and Vitest's default (cores - 1) is one worker on two.
    // More workers than cores made the CPU-bound suites time out on a busy 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
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
