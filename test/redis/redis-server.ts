/**
 * A real redis-server for the tests: started on a free loopback port, without persistence (or
 * with an append-only file, to be restarted), and stopped after. Without redis-server on the machine the Redis tests are skipped, and
 * the reason is printed (install it with `apt-get install redis-server`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export const redisServerMissing: string | undefined = (() => {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return 'redis-server is not installed (apt-get install redis-server, or see CONTRIBUTING.md)';
  }
  return undefined;
})();

if (redisServerMissing) console.warn(`[emporio] skipping the Redis tests: ${redisServerMissing}`);

export interface RedisServer {
  url: string;
  port: number;
  /** The server's process id (a test may stop it with SIGSTOP and go on with SIGCONT). */
  pid: number;
  /** Stops the server (a no-op once stopped). */
  stop(): Promise<void>;
  /** With `appendonly`: stops it (SIGTERM, its append-only file written out) and starts it again on the same port. */
  restart(): Promise<void>;
}

export interface RedisServerOptions {
  cluster?: boolean;
  /** Persist every write to an append-only file (`appendfsync everysec`), in a directory of its own. */
  appendonly?: boolean;
  /** requirepass: clients then need it in their URL. */
  password?: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function launch(port: number, clusterDir: string | undefined, options: RedisServerOptions = {}, dataDir?: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', options.appendonly ? 'yes' : 'no', '--protected-mode', 'yes'];
  if (dataDir) args.push('--dir', dataDir, '--appendfsync', 'everysec');
  if (options.password) args.push('--requirepass', options.password);
  // A cluster of one node (its state file in a directory of its own): multi-key commands are held to one slot, as on any cluster.
  if (clusterDir) args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(clusterDir, 'nodes.conf'));
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 10 s: ${output.slice(-500)}`));
    }, 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`));
    });
  });
}

/**
 * Starts redis-server on a free loopback port (a few tries: the port may be taken meanwhile).
 * With `cluster`, a Redis Cluster of this one node, serving every slot.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const cluster = options.cluster ?? false;
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    // A cluster node also listens on its port + 10000, so its own port is at most 55535.
    let port = await freePort();
    while (cluster && port > 55_535) port = await freePort();
    const clusterDir = cluster ? mkdtempSync(join(tmpdir(), 'emporio-redis-cluster-')) : undefined;
    const removeClusterDir = () => clusterDir && rmSync(clusterDir, { recursive: true, force: true });
    const dataDir = options.appendonly ? mkdtempSync(join(tmpdir(), 'emporio-redis-data-')) : undefined;
    let child: ChildProcess | undefined;
    try {
      child = await launch(port, clusterDir, options, dataDir);
      if (cluster) await serveEverySlot(port);
    } catch (error) {
      child?.kill('SIGKILL');
      removeClusterDir();
      lastError = error;
      continue;
    }
    let running = child;
    let exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    const stopRunning = async () => {
      // A test may have stopped it with SIGSTOP: it must run again to exit on SIGTERM.
      if (running.exitCode === null && running.signalCode === null) running.kill('SIGCONT');
      if (running.exitCode === null && running.signalCode === null) running.kill('SIGTERM');
      await exited;
    };
    return {
      url: `redis://${options.password ? `:${encodeURIComponent(options.password)}@` : ''}127.0.0.1:${port}`,
      port,
      get pid() {
        return running.pid as number;
      },
      async stop() {
        await stopRunning();
        removeClusterDir();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      },
      async restart() {
        await stopRunning();
        running = await launch(port, clusterDir, options, dataDir);
        const current = running;
        exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      },
    };
  }
  throw lastError;
}

/** Gives the one node every slot (CLUSTER ADDSLOTS: Redis 3 and later) and waits until the cluster says it is ok. */
async function serveEverySlot(port: number): Promise<void> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const slots = Array.from({ length: 16_384 }, (_, slot) => String(slot));
    if ((await redis.call('CLUSTER', 'ADDSLOTS', ...slots)) !== 'OK') throw new Error('CLUSTER ADDSLOTS failed');
    for (let i = 0; i < 100; i++) {
      if (String(await redis.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the one-node cluster did not become ok within 5 s');
  } finally {
    redis.disconnect();
  }
}

/**
 * A Redis Cluster of `masters` nodes on free loopback ports, its slots spread over them by
 * `redis-cli --cluster create` (which comes with redis-server); stopped together.
 */
/** A node of a cluster started by {@link startRedisCluster}: stopped with the others, never restarted alone. */
export type ClusterNode = Omit<RedisServer, 'restart'>;

export async function startRedisCluster(masters = 3): Promise<{ nodes: ClusterNode[]; stop(): Promise<void> }> {
  const nodes: ClusterNode[] = [];
  const stop = () => Promise.all(nodes.map((node) => node.stop())).then(() => {});
  try {
    for (let i = 0; i < masters; i++) {
      let port = await freePort();
      while (port > 55_535) port = await freePort();
      const clusterDir = mkdtempSync(join(tmpdir(), 'emporio-redis-cluster-'));
      const child = await launch(port, clusterDir);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      nodes.push({
        url: `redis://127.0.0.1:${port}`,
        port,
        pid: child.pid as number,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
          rmSync(clusterDir, { recursive: true, force: true });
        },
      });
    }
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${(create.stdout + create.stderr).slice(-500)}`);
    for (const node of nodes) {
      const redis = new Redis({ host: '127.0.0.1', port: node.port, lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let ok = false;
        for (let i = 0; i < 200 && !ok; i++) {
          ok = String(await redis.call('CLUSTER', 'INFO')).includes('cluster_state:ok');
          if (!ok) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (!ok) throw new Error('the cluster did not become ok within 10 s');
      } finally {
        redis.disconnect();
      }
    }
    return { nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
