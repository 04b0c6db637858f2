// The package as users get it (build first): pack, lint the package, install the tarball into a
// scratch project, then, on this Node and on an old Node 20 (before require() of ES modules):
// - every value each entry's .d.ts and .d.cts export exists in what import() and require() return,
//   and nothing else does;
// - import and require every entry and make real calls over loopback, with msw not installed;
// - a consumer compiled with strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess,
//   noPropertyAccessFromIndexSignature, verbatimModuleSyntax and no DOM lib type-checks against the
//   declarations of every entry and runs; a merchant backend (test/types/strict/merchant-backend.ts)
//   type-checks with those settings under moduleResolution node16 and bundler;
// - the bins start (--help) on both Nodes;
// - request members keep their doc comments in the declarations (scripts/check-declaration-docs.mjs);
// - the README's TypeScript blocks type-check against the package (scripts/check-readme.mjs).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { checkDeclarationDocs } from './check-declaration-docs.mjs';
import { checkReadme } from './check-readme.mjs';
import { declaredExports } from './lib/declared-exports.mjs';
import { installOldNode, installPacked, installPeers, packageEntries, root, run, strictCompilerOptions, tsc } from './lib/packed.mjs';

const failures = [];
const ok = (cond, what) => {
  if (!cond) failures.push(what);
};
const typeRoots = [join(root, 'node_modules/@types')];
/** On top of the shared strict settings: what the strictest consumers add (their own code must index carefully). */
const strictestChecks = { noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true };

const { scratch, project, tarball, files, cleanup } = installPacked();
try {
  run('npx', ['publint', '--strict', tarball]);
  run('npx', ['attw', tarball, '--profile', 'node16']);

  // What is shipped.
  ok(files.includes('LICENSE'), 'the tarball has a LICENSE');
  ok(!files.includes('dist/cli.cjs'), 'no dist/cli.cjs: the bin is ESM');
  const embedded = files
    .filter((f) => f.endsWith('.map'))
    .filter((f) => JSON.parse(readFileSync(join(project, 'node_modules/emporio', f), 'utf8')).sourcesContent?.some(Boolean));
  ok(embedded.length === 0, `source maps without embedded sources: ${embedded.join(', ')}`);
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules/emporio/package.json'), 'utf8'));
  for (const field of ['repository', 'homepage', 'bugs']) ok(manifest[field] !== undefined, `package.json has ${field}`);
  // The npm page shows the README without the repository around it: a relative link, of the README or
  // of a guide under docs/, must be shipped (anchors aside).
  for (const page of files.filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f))) {
    const text = readFileSync(join(project, 'node_modules/emporio', page), 'utf8');
    const unshipped = [...text.matchAll(/\]\((?!https?:|#|mailto:)([^)\s#]+)(#[^)\s]*)?\)/g)]
      .map((m) => posix.normalize(posix.join(posix.dirname(page), m[1])))
      .filter((f) => !files.includes(f));
    ok(unshipped.length === 0, `${page} links to files not in the package (link to the repository): ${unshipped.join(', ')}`);
  }

  const oldNode = installOldNode(join(scratch, 'old-node'));
  const nodes = [process.execPath, ...(oldNode ? [oldNode] : [])];
  if (!oldNode) console.log('(no old Node 20 on this platform: CommonJS on Node < 20.19 not checked)');
  const version = (node) => execFileSync(node, ['--version']).toString().trim();

  // 1. The kit and the client without msw installed (msw is needed only by emporio/testing/msw).
  const smoke = `
    const ok = (cond, what) => { if (!cond) { console.error('FAIL', what); process.exit(1); } };
    const { startMockMarketplace } = await load('emporio/testing');
    const { MarketplaceClient, NotFoundError, WebhookParseError, ORDER_STATES } = await load('emporio');
    const webhooks = await load('emporio/webhooks');
    ok(webhooks.WebhookParseError === WebhookParseError, 'one copy of each error class across entries');
    ok(ORDER_STATES.includes('open'), 'ORDER_STATES');
    const server = await startMockMarketplace({ port: 0 });
    try {
      const client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
      const order = await client.orders.get('DEMO-OPEN');
      ok(order.code === 'DEMO-OPEN', 'orders.get');
      const missing = await client.orders.get('NOPE-1').catch((e) => e);
      ok(missing instanceof NotFoundError, 'NotFoundError class');
      // Tracing loads its chunk with import() on the first call, in both builds, with no @opentelemetry/api installed.
      const spans = [];
      const span = { setAttributes() {}, addEvent() {}, setStatus() {}, spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }), end() {} };
      const tracer = { startActiveSpan: (name, _options, fn) => (spans.push(name), fn(span)) };
      const traced = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens, tracer });
      ok((await traced.orders.get('DEMO-OPEN')).code === 'DEMO-OPEN' && spans.join() === 'orders.get', 'a traced orders.get');
      ok(webhooks.isAllowedSourceIp('185.6.76.1') === true, 'isAllowedSourceIp');
      ok(webhooks.parseWebhook(JSON.stringify({ event_type: 'new_order', order: { code: 'X' } })).event_type === 'new_order', 'parseWebhook');
      console.log(MODE, process.version, 'smoke ok');
    } finally {
      await server.close();
    }`;
  writeFileSync(join(project, 'smoke.mjs'), `const MODE = 'esm'; const load = (m) => import(m);\n${smoke}`);
  writeFileSync(
    join(project, 'smoke.cjs'),
    `const MODE = 'cjs'; const load = async (m) => require(m);\n(async () => {${smoke}})().catch((e) => { console.error(e); process.exit(1); });`,
  );
  for (const node of nodes) {
    run(node, ['smoke.mjs'], project);
    run(node, ['smoke.cjs'], project);
  }
  installPeers(project);
  // mock.handlers (API.md's `setupServer(...mock.handlers)`) loads msw on first read, in both builds.
  const handlersCheck = `const m = createMockMarketplace(); if (m.handlers.length !== 1) process.exit(1); m.close(); console.log('mock.handlers ok');`;
  writeFileSync(join(project, 'handlers.mjs'), `import { createMockMarketplace } from 'emporio/testing';\n${handlersCheck}`);
  writeFileSync(join(project, 'handlers.cjs'), `const { createMockMarketplace } = require('emporio/testing');\n${handlersCheck}`);
  run(process.execPath, ['handlers.mjs'], project);
  run(process.execPath, ['handlers.cjs'], project);
  if (oldNode) {
    // Before Node 20.19 msw's CommonJS build cannot load: mswHandlers works in an ES module, and
    // mock.handlers says which Node it needs instead of claiming msw is missing.
    writeFileSync(
      join(project, 'handlers-old.mjs'),
      `import { createMockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
const m = createMockMarketplace();
if (mswHandlers(m).length !== 1) process.exit(1);
let said = '';
try { void m.handlers; } catch (error) { said = String(error.message); }
m.close();
if (!said.includes('Node 20.19')) { console.error('mock.handlers on an old Node:', said || 'no error'); process.exit(1); }
console.log(process.version, 'mswHandlers ok; mock.handlers names the Node it needs');`,
    );
    run(oldNode, ['handlers-old.mjs'], project);
  }

  // The bins, as npm linked them, start on each Node (their imports resolve in the installed package).
  for (const [name, file] of Object.entries(manifest.bin ?? {})) {
    ok(files.includes(file.replace(/^\.\//, '')), `bin ${name}: ${file} is shipped`);
    for (const node of nodes) {
      // Bounded: a bin that ignored --help would start a server and never end.
      const help = execFileSync(node, [join(project, 'node_modules/.bin', name), '--help'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'], timeout: 30_000 }).toString();
      ok(help.startsWith(`Usage: ${name}`), `${name} --help on ${version(node)} prints its usage; it printed: ${help.slice(0, 200)}`);
    }
    console.log(`bin ${name}: starts on ${nodes.map(version).join(' and ')}`);
  }

  // 2. Declared value exports against run-time exports, per entry and module format.
  const entries = packageEntries();
  const declared = declaredExports(
    project,
    entries.flatMap((specifier) => [
      { specifier, format: 'esm' },
      { specifier, format: 'cjs' },
    ]),
    { typeRoots },
  );
  writeFileSync(
    join(project, 'list-exports.mjs'),
    `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const name of process.argv.slice(2)) {
  const esm = Object.keys(await import(name)).filter((k) => k !== 'default').sort();
  try {
    out[name] = { esm, cjs: Object.keys(require(name)).filter((k) => k !== '__esModule').sort() };
  } catch (error) {
    // msw's own CommonJS build requires ES modules: on Node < 20.19 that fails in msw, not here.
    if (error.code !== 'ERR_REQUIRE_ESM' || error.stack.includes('node_modules/emporio/')) throw error;
    out[name] = { esm, cjsFailsIn: error.message.split('\\n')[0] };
  }
}
console.log(JSON.stringify(out));
`,
  );
  for (const node of nodes) {
    const actual = JSON.parse(execFileSync(node, ['list-exports.mjs', ...entries], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] }).toString());
    entries.forEach((entry, i) => {
      if (actual[entry].cjsFailsIn) console.log(`${entry}: require() on ${version(node)} fails in a dependency: ${actual[entry].cjsFailsIn}`);
      for (const [format, declaration, names] of [
        ['esm', '.d.ts', declared[2 * i].values],
        ...(actual[entry].cjsFailsIn ? [] : [['cjs', '.d.cts', declared[2 * i + 1].values]]),
      ]) {
        const loaded = new Set(actual[entry][format]);
        const missing = names.filter((name) => !loaded.has(name));
        const undeclared = [...loaded].filter((name) => !names.includes(name));
        const how = format === 'esm' ? 'import()' : 'require()';
        ok(missing.length === 0, `${entry}: ${declaration} exports values ${how} lacks on ${version(node)}: ${missing.join(', ')}`);
        ok(undeclared.length === 0, `${entry}: ${how} on ${version(node)} has values its ${declaration} does not declare: ${undeclared.join(', ')}`);
      }
    });
    console.log(`exports of ${entries.join(', ')}: .d.ts/.d.cts values compared with import()/require() on ${version(node)}`);
  }

  // 3. A consumer with the strictest settings users have, and no DOM lib: type-only imports of
  //    schema types are erased, value imports exist, and every entry's types need only Node's
  //    (msw's own types need the DOM lib, so emporio/testing/msw is left to the README check).
  const consumer = join(project, 'consumer');
  mkdirSync(consumer);
  const compilerOptions = { ...strictCompilerOptions, ...strictestChecks, lib: ['es2022'], typeRoots };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts', '*.cts'] }));
  const body = (importLines) => `${importLines}
const server = await testing.startMockMarketplace({ port: 0 });
try {
  const client = new emporio.MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
  const order: Order = await client.orders.get('DEMO-OPEN');
  if (!emporio.ORDER_STATES.includes(order.state as (typeof emporio.ORDER_STATES)[number])) throw new Error('state');
  const mock = testing.createMockMarketplace();
  const response = await mock.fetch(new Request(\`\${mock.baseUrl}/nowhere\`));
  if (response.status < 400) throw new Error('mock.fetch');
  const events: string[] = [];
  const handler = webhooks.createWebhookHandler({ urlSecret: false, allowedRanges: false, onEvent: (event) => void events.push(event.event_type) });
  const delivery = new Request('http://127.0.0.1/webhooks', { method: 'POST', body: JSON.stringify({ event_type: 'new_order', order: { code: 'X-1' } }) });
  // A fetch runtime's peer address may be unknown (Bun's server.requestIP(req)?.address): undefined is accepted.
  const peer: string | undefined = process.env['EMPORIO_PEER'];
  if ((await handler(delivery, { remoteAddress: peer })).status !== 200 || events[0] !== 'new_order') throw new Error('webhook handler');
  // A node-redis-shaped client: the claim is one SET NX.
  const sent: string[][] = [];
  const fakeRedis: redis.NodeRedisClientLike = { isReady: true, sendCommand: async (args) => (sent.push(args), 'OK') };
  if (!(await redis.redisStores(fakeRedis, { prefix: 'consumer:' }).dedupe.claim('delivery', 1_000)) || sent[0]?.[0] !== 'SET') throw new Error('redisStores');
  // The feed: written gzipped, read back (saxes, fflate and the CSV libraries load in either format).
  // The second product's name needs CDATA and the third repeats the first's id: the writer's
  // deferred check (its WebAssembly scanner) hands both to the full checker.
  const writer = feed.createFeedWriter({ gzip: true });
  const product: feed.FeedProduct = { id: 'P-1', name: 'Example', link: 'https://shop.example.com/p/1', image: '', category: 'A > B', price: 1.5, vat: 24, availability: 'In Stock', manufacturer: 'M', mpn: 'X', ean: '2001001001018', description: 'd', quantity: 1 };
  const gzipped = new Response(writer.readable).arrayBuffer();
  await writer.write(product);
  await writer.write({ ...product, id: 'P-2', name: 'Example & more' });
  await writer.write({ ...product, name: 'Again' });
  const written = writer.end();
  if (written.products !== 2 || written.errors[0]?.rule !== 'duplicate_id') throw new Error('feed writer: ' + JSON.stringify(written));
  const feedReport = await feed.checkFeed(new Uint8Array(await gzipped));
  if (feedReport.products !== 2 || feedReport.errorCount !== 0) throw new Error('feed');
  // A CSV feed: its parser is a chunk of its own, loaded on first use.
  const csv = 'id,name,link,image,category,price,vat,availability,manufacturer,mpn,ean,quantity\\nP-1,Example,https://shop.example.com/p/1,https://shop.example.com/p/1.jpg,A > B,1.50,24,In Stock,M,X,2001001001018,1\\n';
  const csvReport = await feed.checkFeed(csv);
  if (csvReport.products !== 1 || csvReport.errorCount !== 0) throw new Error(\`CSV feed: \${JSON.stringify(csvReport)}\`);
  // The orders tracker remembers an open order.
  const tracker = ordersTracker.createOrderTracker({ client, onEvent: () => {} });
  if (!(await tracker.track(order)) || (await tracker.tracked())[0]?.order.code !== 'DEMO-OPEN') throw new Error('orders tracker');
  console.log('consumer ok:', order.code, order.state);
} finally {
  await server.close();
}
`;
  writeFileSync(
    join(consumer, 'esm.ts'),
    body(`import type { Order } from 'emporio';
import * as emporio from 'emporio';
import * as feed from 'emporio/feed';
import * as ordersTracker from 'emporio/orders-tracker';
import * as redis from 'emporio/redis';
import * as testing from 'emporio/testing';
import * as webhooks from 'emporio/webhooks';`),
  );
  writeFileSync(
    join(consumer, 'cjs.cts'),
    `import type { Order } from 'emporio';
import emporio = require('emporio');
import feed = require('emporio/feed');
import ordersTracker = require('emporio/orders-tracker');
import redis = require('emporio/redis');
import testing = require('emporio/testing');
import webhooks = require('emporio/webhooks');
void (async () => {
${body('')}
})().catch((error) => { console.error(error); process.exit(1); });
`,
  );
  tsc(consumer);
  for (const node of nodes) {
    run(node, ['out/esm.js'], consumer);
    run(node, ['out/cjs.cjs'], consumer);
  }
  // A merchant backend using every entry, options from process.env, type-checked with the strictest
  // settings under each module resolution users pick (Node's own, and a bundler's).
  for (const [module, moduleResolution] of [['node16', 'node16'], ['preserve', 'bundler']]) {
    const backend = join(project, `backend-${moduleResolution}`);
    mkdirSync(backend);
    cpSync(join(root, 'test/types/strict/merchant-backend.ts'), join(backend, 'merchant-backend.ts'));
    const options = { ...compilerOptions, module, moduleResolution, noEmit: true };
    writeFileSync(join(backend, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['*.ts'] }));
    tsc(backend);
    console.log(`merchant backend: type-checks with moduleResolution ${moduleResolution} and ${Object.keys(strictestChecks).join(', ')}`);
  }

  // A type used as a value import is an error at compile time now, not a crash at start.
  const misuse = join(project, 'misuse');
  mkdirSync(misuse);
  writeFileSync(join(misuse, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, include: ['*.ts'] }));
  writeFileSync(join(misuse, 'misuse.ts'), `import { Order } from 'emporio';\nexport const order: Order | undefined = undefined;\n`);
  let refused = '';
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', misuse], { cwd: misuse, stdio: 'pipe' });
  } catch (error) {
    refused = String(error.stdout);
  }
  ok(/TS148[45]/.test(refused), `a value import of the type Order must be refused under verbatimModuleSyntax; tsc said: ${refused || 'nothing'}`);

  // 4. Request members keep their doc comments (what an editor shows on hover), ESM and CommonJS.
  for (const failure of checkDeclarationDocs(project, { typeRoots })) ok(false, failure);

  // 5. The README's code against the installed package.
  checkReadme(project, { typeRoots });
} finally {
  cleanup();
}

if (failures.length > 0) {
  for (const failure of failures) console.error('FAIL', failure);
  process.exit(1);
}
console.log('packed package ok');
