/**
 * An order webhook receiver on plain node:http.
 *
 *   PORT=8080 npx tsx examples/webhook-node-http.ts
 *
 * The marketplace posts each event to the HTTPS URL registered in the merchant panel
 * (terminate TLS in front of this server). Deliveries carry no signature, so the URL carries
 * a secret: register `https://shop.example/webhooks/<WEBHOOK_URL_SECRET>`; any other URL is
 * answered 404 before its body is read. Only the documented source addresses are accepted.
 * Behind a reverse proxy that sets X-Forwarded-For, start it with TRUST_PROXY_HOPS=1 (one
 * proxy in front); never without a proxy, since anyone can write that header.
 *
 * To try it locally, allow loopback and post an event by hand:
 *   export WEBHOOK_URL_SECRET=$(node -e "console.log(crypto.randomUUID())")
 *   ALLOW_LOOPBACK=1 npx tsx examples/webhook-node-http.ts
 *   curl -i -X POST localhost:8080/webhooks/$WEBHOOK_URL_SECRET -H 'content-type: application/json' \
 *     -d '{"event_type":"new_order","order":{"code":"DEMO-OPEN","state":"open"}}'
 */
import { createServer } from 'node:http';
import { createWebhookHandler, isReturnEvent, toNodeHandler, WEBHOOK_SOURCE_RANGES, type WebhookEvent } from 'emporio/webhooks';

const port = Number(process.env.PORT ?? 8080);
const hops = process.env.TRUST_PROXY_HOPS ? Number(process.env.TRUST_PROXY_HOPS) : undefined;
const allowedRanges = process.env.ALLOW_LOOPBACK ? [...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8', '::1/128'] : WEBHOOK_SOURCE_RANGES;

async function onEvent(event: WebhookEvent): Promise<void> {
  // TypeScript cannot take the known names out of `string`, so unknown events are picked out first.
  if ('raw' in event) {
    console.log(`unknown event ${event.event_type}: kept for later`, event.raw);
    return;
  }
  if (isReturnEvent(event)) {
    console.log(`return ${event.return.return_code} of order ${event.return.order_code}: ${event.return.state}`);
    return;
  }
  if (event.event_type === 'new_order') {
    console.log(`new order ${event.order.code} (${event.order.line_items?.length ?? 0} line items)`);
    // Queue the work and return quickly: the marketplace counts a slow answer as a failure.
    return;
  }
  const state = event.changes?.state;
  console.log(`order ${event.order.code} updated${state ? `: ${state.old} → ${state.new}` : ''}`);
}

const urlSecret = process.env.WEBHOOK_URL_SECRET;
if (!urlSecret) throw new Error('set WEBHOOK_URL_SECRET: the secret at the end of the URL registered in the merchant panel');

const handler = createWebhookHandler({
  onEvent,
  // While rotating: [oldSecret, newSecret]; once the panel has the new URL, the new one alone.
  urlSecret,
  allowedRanges,
  trustProxy: hops,
  // Keep the default in-memory deduplication, or share one store between instances:
  // dedupe: new Keyv(new KeyvRedis('redis://...')),
});

createServer((req, res) => {
  if (!req.url?.startsWith('/webhooks/')) {
    res.statusCode = 404;
    res.end();
    return;
  }
  toNodeHandler(handler)(req, res);
}).listen(port, () => console.log(`order webhook receiver on http://localhost:${port}/webhooks/<secret>`));
