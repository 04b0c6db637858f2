/**
 * An order webhook receiver in an Express app, with or without a body parser: the adapter
 * reads the raw stream, or `req.body` when `express.json()`, `express.raw()` or
 * `express.text()` already read it. (emporio does not depend on Express; this project
 * has it as a dev dependency for this example and its test.)
 *
 * Express's own 'trust proxy' setting does not reach the handler: behind a proxy, pass
 * `trustProxy` to createWebhookHandler (here: TRUST_PROXY_HOPS=1).
 *
 *   ALLOW_LOOPBACK=1 npx tsx examples/webhook-express.ts
 *   curl -X POST localhost:8080/webhooks/orders -H 'content-type: application/json' \
 *     -d '{"event_type":"new_order","order":{"code":"260330-1000001"}}'
 */
import express from 'express';
import { createWebhookHandler, toNodeHandler, WEBHOOK_SOURCE_RANGES, type WebhookEvent } from 'emporio/webhooks';

export function createApp(onEvent: (event: WebhookEvent) => Promise<void>): express.Express {
  const handler = createWebhookHandler({
    onEvent,
    // The marketplace's published ranges; ALLOW_LOOPBACK lets you try it with curl.
    allowedRanges: process.env.ALLOW_LOOPBACK ? [...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8', '::1/128'] : WEBHOOK_SOURCE_RANGES,
    trustProxy: process.env.TRUST_PROXY_HOPS ? Number(process.env.TRUST_PROXY_HOPS) : undefined,
  });
  const app = express();
  app.use(express.json()); // the rest of the app's routes want it; the webhook route copes either way
  app.post('/webhooks/orders', toNodeHandler(handler));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = createApp(async (event) => {
    if ('raw' in event) console.log(`unknown event ${event.event_type}`);
    else console.log(`${event.event_type} for order ${event.order.code}`);
  });
  const port = Number(process.env.PORT ?? 8080);
  app.listen(port, () => console.log(`order webhook receiver on http://localhost:${port}/webhooks/orders`));
}
