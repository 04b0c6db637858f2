// Typechecks every ```ts block of the README against the package, as a new user would paste
// it: each block becomes a file with the README's imports and a few declared placeholders.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dir = resolve(root, '.tmp/readme');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const prelude = `import * as http from 'node:http';
import { setupServer } from 'msw/node';
import { canSetAsReady, clientCredentials, isOrderAlreadyRejected, MarketplaceClient, type ProductUpdate, userToken } from 'emporio';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';
import { createMockMarketplace } from 'emporio/testing';
declare const pdfBytes: Uint8Array;
declare const oauth: { accessToken(): Promise<string> };
declare function readFeed(): AsyncIterable<ProductUpdate>;
declare const queue: { push(code: string): Promise<void> };
declare const client: MarketplaceClient;
export {};
`;

const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
blocks.forEach((block, i) => {
  const body = block
    .split('\n')
    .filter((line) => !line.startsWith('import '))
    .join('\n')
    .replace('const client = new', 'const configured = new');
  writeFileSync(resolve(dir, `block${i + 1}.ts`), `${prelude}async function block() {\n${body}\n}\nvoid block;\n`);
});
writeFileSync(
  resolve(dir, 'tsconfig.json'),
  JSON.stringify({ extends: '../../tsconfig.json', include: ['./*.ts'], compilerOptions: { noUnusedLocals: false } }),
);
execFileSync('npx', ['tsc', '--noEmit', '-p', dir], { cwd: root, stdio: 'inherit' });
console.log(`README: ${blocks.length} TypeScript blocks typecheck`);
