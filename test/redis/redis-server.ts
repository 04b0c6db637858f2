/**
 * A real redis-server for the tests: started on a free loopback port, without persistence,
 * and stopped after. Without redis-server on the machine the Redis tests are skipped, and
 * the reason is printed (install it with `apt-get install redis-server`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const redisServerMissing: string | undefined = (() => {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return 'redis-server is not installed (apt-get install redis-server, or see README "Running several instances")';
  }
  return undefined;
})();

if (redisServerMissing) console.warn(`[emporio] skipping the Redis tests: ${redisServerMissing}`);

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (a no-op once stopped). */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
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

/** Starts redis-server on a free loopback port (a few tries: the port may be taken meanwhile). */
export async function startRedisServer(): Promise<RedisServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    let child: ChildProcess;
    try {
      child = await launch(port);
    } catch (error) {
      lastError = error;
      continue;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  }
  throw lastError;
}
