/**
 * An order webhook receiver for Express, with or without a body parser.
 *
 * With Express installed, this is all it takes:
 *
 *   import express from 'express';
 *   import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';
 *
 *   const app = express();
 *   app.post('/webhooks/orders', toNodeHandler(createWebhookHandler({ onEvent })));
 *   // also fine after a body parser, e.g. app.use(express.json()) or express.raw():
 *   // the adapter then uses req.body instead of the (already read) stream
 *   // Express's own 'trust proxy' setting does not reach the handler: pass trustProxy to createWebhookHandler.
 *   app.listen(8080);
 *
 * This SDK does not depend on Express, so this file types the app structurally
 * (`post` and `listen`, as Express has them) and, to stay runnable without Express,
 * serves it with a few lines of node:http that behave like `express()` + `express.json()`:
 *
 *   ALLOW_LOOPBACK=1 npx tsx examples/webhook-express.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createWebhookHandler,
  type NodeRequestLike,
  type NodeResponseLike,
  toNodeHandler,
  WEBHOOK_SOURCE_RANGES,
  type WebhookEvent,
} from 'emporio/webhooks';

type Route = (req: NodeRequestLike, res: NodeResponseLike, next: () => void) => void;

/** The part of an Express app this example uses. */
interface AppLike {
  post(path: string, ...handlers: Route[]): unknown;
  listen(port: number, callback?: () => void): unknown;
}

export function mountOrderWebhook(app: AppLike, onEvent: (event: WebhookEvent) => Promise<void>): void {
  const handler = createWebhookHandler({
    onEvent,
    allowedRanges: process.env.ALLOW_LOOPBACK ? [...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8', '::1/128'] : WEBHOOK_SOURCE_RANGES,
    trustProxy: process.env.TRUST_PROXY_HOPS ? Number(process.env.TRUST_PROXY_HOPS) : undefined,
  });
  app.post('/webhooks/orders', toNodeHandler(handler));
}

/** Stand-in for `express()` with `app.use(express.json())`: JSON bodies are parsed into req.body first. */
function miniExpress(): AppLike {
  const routes = new Map<string, Route[]>();
  const server = createServer((req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    const chain = req.method === 'POST' ? routes.get(req.url?.split('?')[0] ?? '') : undefined;
    if (!chain) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const run = () => chain.reduceRight<() => void>((next, route) => () => route(req, res, next), () => {})();
    if (!req.headers['content-type']?.startsWith('application/json')) return run();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.statusCode = 400;
        res.end('invalid JSON');
        return;
      }
      run();
    });
  });
  return {
    post: (path, ...handlers) => routes.set(path, handlers),
    listen: (port, callback) => server.listen(port, callback),
  };
}

const app = miniExpress();
mountOrderWebhook(app, async (event) => {
  if ('raw' in event) console.log(`unknown event ${event.event_type}`);
  else console.log(`${event.event_type} for order ${event.order.code}`);
});
const port = Number(process.env.PORT ?? 8080);
app.listen(port, () => console.log(`order webhook receiver on http://localhost:${port}/webhooks/orders`));
