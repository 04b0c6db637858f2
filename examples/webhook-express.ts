/**
 * An order webhook receiver in an Express app, with or without a body parser: the adapter
 * reads the raw stream, or `req.body` when `express.json()`, `express.raw()` or
 * `express.text()` already read it. (emporio does not depend on Express; this project
 * has it as a dev dependency for this example and its test.)
 *
 * The route carries the URL secret (deliveries are unsigned): register
 * `https://shop.example/webhooks/<WEBHOOK_URL_SECRET>` in the merchant panel. The webhook route
 * comes before `express.json()`, so a request to any other URL is refused unread.
 *
 * Express's own 'trust proxy' setting does not reach the handler: behind a proxy, pass
 * `trustProxy` to createWebhookHandler (here: TRUST_PROXY_HOPS=1).
 *
 *   export WEBHOOK_URL_SECRET=$(node -e "console.log(crypto.randomUUID())")
 *   ALLOW_LOOPBACK=1 npx tsx examples/webhook-express.ts
 *   curl -X POST localhost:8080/webhooks/$WEBHOOK_URL_SECRET -H 'content-type: application/json' \
 *     -d '{"event_type":"new_order","order":{"code":"260330-1000001"}}'
 */
import express from 'express';
import { createWebhookHandler, isReturnEvent, toNodeHandler, WEBHOOK_SOURCE_RANGES, type WebhookEvent } from 'emporio/webhooks';

export function createApp(onEvent: (event: WebhookEvent) => Promise<void>, urlSecret: string | string[]): express.Express {
  const handler = createWebhookHandler({
    onEvent,
    urlSecret, // while rotating: [oldSecret, newSecret]
    // The marketplace's published ranges; ALLOW_LOOPBACK lets you try it with curl.
    allowedRanges: process.env.ALLOW_LOOPBACK ? [...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8', '::1/128'] : WEBHOOK_SOURCE_RANGES,
    trustProxy: process.env.TRUST_PROXY_HOPS ? Number(process.env.TRUST_PROXY_HOPS) : undefined,
  });
  const app = express();
  app.post('/webhooks/:secret', toNodeHandler(handler));
  app.use(express.json()); // the rest of the app's routes want it (the webhook route copes either way)
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const urlSecret = process.env.WEBHOOK_URL_SECRET;
  if (!urlSecret) throw new Error('set WEBHOOK_URL_SECRET: the secret at the end of the URL registered in the merchant panel');
  const app = createApp(async (event) => {
    if ('raw' in event) console.log(`unknown event ${event.event_type}`);
    else if (isReturnEvent(event)) console.log(`${event.event_type} for return ${event.return.return_code}`);
    else console.log(`${event.event_type} for order ${event.order.code}`);
  }, urlSecret);
  const port = Number(process.env.PORT ?? 8080);
  app.listen(port, () => console.log(`order webhook receiver on http://localhost:${port}/webhooks/<secret>`));
}
