/**
 * An order webhook receiver as a plain `(Request) => Promise<Response>` function: the
 * shape Bun, Deno, Hono and edge workers serve. Only the address has to come from the
 * runtime, since a Request does not carry it:
 *
 *   Bun:   Bun.serve({ fetch: (req, server) => receive(req, server.requestIP(req)?.address) });
 *   Deno:  Deno.serve((req, info) => receive(req, info.remoteAddr.hostname));
 *   Hono:  app.post('/webhooks/:secret', (c) => receive(c.req.raw, getConnInfo(c).remote.address));
 *
 * Deliveries are unsigned, so the URL registered in the merchant panel carries a secret
 * (`https://shop.example/webhooks/<secret>`); the handler answers 404 to any other URL.
 *
 * Running this file posts one sample delivery to the handler in-process and prints the answers:
 *   npx tsx examples/webhook-fetch.ts
 */
import { createWebhookHandler, isReturnEvent, type WebhookEvent } from 'emporio/webhooks';

// A sample secret so that this file runs as is; yours comes from the environment.
const URL_SECRET = process.env.WEBHOOK_URL_SECRET ?? 'sample-3c1f9a0e-7b2d-4e55-9f10';

const handler = createWebhookHandler({
  urlSecret: URL_SECRET,
  onEvent: async (event: WebhookEvent) => {
    if ('raw' in event) return; // an event type this SDK version does not know; event.raw has it all
    if (isReturnEvent(event)) return void console.log(`${event.event_type}: return ${event.return.return_code}`);
    if (event.event_type === 'order_updated' && event.changes?.state?.new === 'cancelled') {
      console.log(`order ${event.order.code} was cancelled: stop packing it`);
    } else {
      console.log(`${event.event_type}: order ${event.order.code}`);
    }
  },
  // On a platform whose edge proxy appends the client to X-Forwarded-For: trustProxy: 1.
});

export function receive(request: Request, remoteAddress: string | undefined): Promise<Response> {
  return handler(request, { remoteAddress });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const delivery = (url = `https://shop.example/webhooks/${URL_SECRET}`) =>
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'marketplace OrderNotifier v1' },
      body: JSON.stringify({
        event_type: 'order_updated',
        event_time: '2026-03-30T10:00:00+03:00',
        order: { code: '260330-1000001', state: 'cancelled' },
        changes: { state: { old: 'open', new: 'cancelled' } },
      }),
    });
  const first = await receive(delivery(), '185.6.76.10');
  const redelivery = await receive(delivery(), '185.6.76.10');
  const stranger = await receive(delivery(), '203.0.113.9');
  const guess = await receive(delivery('https://shop.example/webhooks/orders'), '185.6.76.10');
  console.log(
    `answers: ${first.status} ${await first.text()}; redelivery ${redelivery.status} ${await redelivery.text()}; ` +
      `other address ${stranger.status}; URL without the secret ${guess.status}`,
  );
}
