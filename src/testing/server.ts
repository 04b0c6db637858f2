/** A real node:http server on loopback: IncomingMessage → Request → core handler → ServerResponse. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DROPPED, type HandleResult } from './mock.js';

export interface ListenOptions {
  /** 0 (default) picks a free port. */
  port?: number | undefined;
  /** Default '127.0.0.1'. */
  host?: string | undefined;
}

export interface RunningServer {
  url: string;
  /** The server is listening; `handle` can be set afterwards (the mock needs the URL first). */
  setHandler(handle: (request: Request) => Promise<HandleResult>): void;
  close(): Promise<void>;
}

export async function listen({ port = 0, host = '127.0.0.1' }: ListenOptions = {}): Promise<RunningServer> {
  let handle: ((request: Request) => Promise<HandleResult>) | undefined;
  const server: Server = createServer((req, res) => {
    void serve(req, res, handle);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    setHandler(next) {
      handle = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handle: ((request: Request) => Promise<HandleResult>) | undefined,
): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new DOMException('The client closed the connection', 'AbortError'));
  });
  try {
    if (!handle) throw new Error('mock not ready');
    const result = await handle(toRequest(req, abort.signal));
    if (result === DROPPED) {
      req.socket.destroy();
      return;
    }
    res.statusCode = result.status;
    result.headers.forEach((value, name) => {
      res.appendHeader(name, value);
    });
    // The mock's answers are small and already in memory: one write with a Content-Length keeps
    // keep-alive connections cheap (benchmarks measure the client, not chunked encoding).
    const body = result.body ? Buffer.from(await result.arrayBuffer()) : undefined;
    if (body) res.setHeader('Content-Length', body.length);
    res.end(body);
  } catch (error) {
    if (abort.signal.aborted) return;
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ errors: [{ code: 'internal_error', messages: [String((error as Error)?.message)] }] }));
    } else {
      res.destroy();
    }
  }
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const host = req.headers.host ?? 'localhost';
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', `http://${host}`), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    signal,
    // @ts-expect-error: Node's fetch needs duplex for a streamed request body; lib.dom does not know it yet.
    duplex: 'half',
  });
}
