/** Raw node:http servers on loopback for hostile-answer tests: they write whatever a broken server or proxy would. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Loopback {
  url: string;
  /** Requests that reached the server. */
  requests: IncomingMessage[];
  /** Resolves when a connection closes, with the bytes written to it by then. */
  closed: Promise<number>;
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

export async function listen(handle: (req: IncomingMessage, res: ServerResponse, written: { bytes: number }) => void): Promise<Loopback> {
  const requests: IncomingMessage[] = [];
  let onClose!: (bytes: number) => void;
  const closed = new Promise<number>((resolve) => {
    onClose = resolve;
  });
  const server = createServer((req, res) => {
    requests.push(req);
    const written = { bytes: 0 };
    res.on('close', () => onClose(written.bytes));
    handle(req, res, written);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, closed };
}

/** Writes 64 KiB chunks, waiting for the socket to drain, until the connection closes or `maxMs` passes. */
export function endless(res: ServerResponse, written: { bytes: number }, maxMs = 5_000, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const until = Date.now() + maxMs;
  const pump = () => {
    while (!res.destroyed && Date.now() < until) {
      written.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** What `promise` rejects with; a resolution fails the test. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}
