/**
 * A TCP proxy on loopback for the Redis tests: forwards each connection to `target`, each
 * chunk `delayMs` later in either direction (a Redis far away), in order, and holds every
 * chunk while paused (a Redis that stalls). Both can change while connections are open.
 */
import { createServer, type Socket, connect } from 'node:net';

export interface TcpProxy {
  port: number;
  url: string;
  /** Added to each chunk, in each direction. */
  delayMs: number;
  /** Holds every chunk for `ms` from now (those sent before still arrive in order after). */
  pause(ms: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, { delayMs = 0 } = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let pausedUntil = 0;
  /** Forwards `from`'s chunks to `to`, each no earlier than its delay (or the pause's end), never overtaking the one before. */
  const forward = (from: Socket, to: Socket) => {
    let last = 0;
    from.on('data', (chunk) => {
      const at = Math.max(Date.now() + proxy.delayMs, pausedUntil, last);
      last = at;
      setTimeout(() => to.destroyed || to.write(chunk), at - Date.now());
    });
    from.on('close', () => setTimeout(() => to.destroy(), Math.max(0, last - Date.now())));
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const proxy: TcpProxy = {
    port,
    url: `redis://127.0.0.1:${port}`,
    delayMs,
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
