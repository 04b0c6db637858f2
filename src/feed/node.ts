import { pipeline, Readable } from 'node:stream';
import type { NodeRequestLike } from '../webhooks/node.js';
import type { FeedHandler } from './handler.js';
import type { NodeWritableLike } from './output.js';

/** The parts of node:http's ServerResponse (and Express's response) the feed adapter uses. */
export interface NodeFeedResponseLike extends NodeWritableLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  headersSent?: boolean | undefined;
}

/**
 * Adapts a feed handler to node:http and Express: `(req, res) => void`. The sender's address
 * is the socket's; the feed is streamed, never held whole.
 */
export function toNodeHandler(handler: FeedHandler): (req: NodeRequestLike, res: NodeFeedResponseLike) => void {
  return (req, res) => {
    const headers = new Headers();
    for (const name in req.headers) {
      const value = req.headers[name];
      if (value === undefined || name.startsWith(':')) continue;
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.set(name, value);
    }
    const method = (req.method ?? 'GET').toUpperCase();
    let request: Request;
    try {
      // Only GET and HEAD are served (anything else is answered 405): no body is ever read.
      request = new Request('http://localhost/', { method: method === 'HEAD' || method === 'GET' ? method : 'POST', headers });
    } catch {
      res.statusCode = 400;
      res.end();
      return;
    }
    handler(request, { remoteAddress: req.socket?.remoteAddress })
      .then((response) => {
        res.statusCode = response.status;
        response.headers.forEach((value, name) => {
          res.setHeader(name, value);
        });
        if (response.body === null) {
          res.end();
          return;
        }
        // pipeline, not pipe: a crawler that hangs up stops the read of the file.
        pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res as unknown as NodeJS.WritableStream, () => {});
      })
      .catch(() => {
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
  };
}
