import type { WebhookHandler } from './handler.js';

/**
 * The parts of node:http's IncomingMessage (and Express's request) the adapter uses.
 * Typed structurally so this entry imports nothing from Node and runs on any runtime.
 */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  method?: string | undefined;
  url?: string | undefined;
  /** Express: the URL as requested, where `url` lost the path a router is mounted at. */
  originalUrl?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string | undefined } | null | undefined;
  /** Set by a body parser (Express `json()`, `raw()`, `text()`) that already read the stream. */
  body?: unknown;
  /** True once the body stream was read to its end (by a body parser). */
  readableEnded?: boolean | undefined;
}

/** The parts of node:http's ServerResponse (and Express's response) the adapter uses. */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk?: string): unknown;
  headersSent?: boolean | undefined;
}

const encoder = new TextEncoder();

/**
 * Adapts a {@link WebhookHandler} to node:http and Express: `(req, res) => void`.
 *
 * The sender's address is the socket's (`req.socket.remoteAddress`). The body is read
 * from the request stream, so the handler's size limit applies while reading; when a
 * body parser already read it, `req.body` is used instead: bytes or a string as they
 * are, a parsed object as its JSON text (the same text for every redelivery, so
 * deduplication still works).
 */
export function toNodeHandler(handler: WebhookHandler): (req: NodeRequestLike, res: NodeResponseLike) => void {
  return (req, res) => {
    const body = { ended: req.readableEnded === true };
    let request: Request;
    try {
      request = toRequest(req, body);
    } catch {
      // fetch refuses some methods (TRACE, CONNECT) outright: they are still just "not POST".
      const post = req.method?.toUpperCase() === 'POST';
      if (!post) res.setHeader('allow', 'POST');
      send(res, post ? 400 : 405, post ? 'request could not be read' : 'method not allowed');
      return;
    }
    handler(request, { remoteAddress: req.socket?.remoteAddress })
      .then(async (response) => {
        const text = await response.text();
        response.headers.forEach((value, name) => {
          res.setHeader(name, value);
        });
        // A refused or oversized body is not drained (Node would read it all to keep the
        // connection alive): close the connection instead.
        if (!body.ended) res.setHeader('connection', 'close');
        res.statusCode = response.status;
        res.end(text);
      })
      .catch(() => send(res, 500, 'internal error'));
  };
}

function send(res: NodeResponseLike, status: number, text: string): void {
  if (!res.headersSent) {
    res.statusCode = status;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
  }
  res.end(text);
}

function toRequest(req: NodeRequestLike, body: { ended: boolean }): Request {
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(':')) continue; // skip HTTP/2 pseudo-headers
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  // Path and query as requested (the urlSecret check reads both); the host header is not trusted to build it.
  const url = new URL(safePath(req.originalUrl ?? req.url), 'http://localhost');
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });

  let init: BodyInit | null;
  if (req.readableEnded === true) {
    init = parsedBody(req.body);
    // The body is now the parser's result: the wire's length and encoding no longer describe it.
    headers.delete('content-length');
    headers.delete('content-encoding');
    headers.delete('transfer-encoding');
  } else {
    init = streamOf(req, body);
  }
  return new Request(url, { method, headers, body: init, duplex: 'half' } as RequestInit);
}

function safePath(path: string | undefined): string {
  // '//host' and '/\host' would let the sender name the host (URL parsers read \ as /).
  return path?.startsWith('/') && !path.startsWith('//') && !path.includes('\\') ? path : '/';
}

function parsedBody(body: unknown): BodyInit | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>;
  if (body instanceof ArrayBuffer) return body;
  return JSON.stringify(body);
}

/** Pulls chunks on demand, so a body over the limit is never read past it. */
function streamOf(req: NodeRequestLike, body: { ended: boolean }): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) {
          body.ended = true;
          controller.close();
        } else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : (value as Uint8Array));
      },
    },
    { highWaterMark: 0 },
  );
}
