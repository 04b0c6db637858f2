// The package as users get it: pack, lint the package, install the tarball into a
// scratch folder, then import and require every entry and make a real call over loopback.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });
const scratch = mkdtempSync(join(tmpdir(), 'emporio-smoke-'));

try {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: root }).toString());
  const tarball = join(scratch, packed[0].filename);
  run('npx', ['publint', '--strict', tarball]);
  run('npx', ['attw', tarball, '--profile', 'node16']);

  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
  // msw is an optional peer dependency: needed by emporio/testing's msw handlers.
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'msw@2'], scratch);

  const check = `
    const ok = (cond, what) => { if (!cond) { console.error('FAIL', what); process.exit(1); } };
    const { startMockMarketplace } = await load('emporio/testing');
    const { MarketplaceClient, NotFoundError, WebhookParseError } = await load('emporio');
    const webhooks = await load('emporio/webhooks');
    ok(webhooks.WebhookParseError === WebhookParseError, 'one copy of each error class across entries');
    const server = await startMockMarketplace({ port: 0 });
    try {
      const client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
      const order = await client.orders.get('DEMO-OPEN');
      ok(order.code === 'DEMO-OPEN', 'orders.get');
      const missing = await client.orders.get('NOPE-1').catch((e) => e);
      ok(missing instanceof NotFoundError, 'NotFoundError class');
      ok(webhooks.isAllowedSourceIp('185.6.76.1') === true, 'isAllowedSourceIp');
      ok(webhooks.parseWebhook(JSON.stringify({ event_type: 'new_order', order: { code: 'X' } })).event_type === 'new_order', 'parseWebhook');
      console.log(MODE, 'smoke ok');
    } finally {
      await server.close();
    }`;
  writeFileSync(join(scratch, 'esm.mjs'), `const MODE = 'esm'; const load = (m) => import(m);\n${check}`);
  writeFileSync(join(scratch, 'cjs.cjs'), `const MODE = 'cjs'; const load = async (m) => require(m);\n(async () => {${check}})().catch((e) => { console.error(e); process.exit(1); });`);
  run('node', ['esm.mjs'], scratch);
  run('node', ['cjs.cjs'], scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
