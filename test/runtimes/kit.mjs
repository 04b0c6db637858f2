// Bun and Deno: emporio/testing's mock server (it listens with node:http) answering a client and
// delivering a webhook to a handler on the same runtime, and emporio/feed's writer, checker and handler.
import { MarketplaceClient } from 'emporio';
import { checkFeed, createFeedHandler, createFeedWriter } from 'emporio/feed';
import { startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler } from 'emporio/webhooks';
import { createServer } from 'node:http';
import { checks } from './client-scenario.mjs';

const { results, check, expect } = checks();

await check('testing: mock server, client and webhook delivery', async () => {
  const server = await startMockMarketplace({ port: 0, host: '127.0.0.1', webhookIntervalMs: 10, webhookMaxAttempts: 1 });
  const events = [];
  const secret = 'kit-secret-0123456789';
  const handler = createWebhookHandler({ urlSecret: secret, allowedRanges: false, onEvent: (event) => void events.push(event.event_type) });
  const receiver = createServer(toNodeHandler(handler));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
    const order = await client.orders.get('DEMO-OPEN');
    server.mock.webhooks.register(`http://127.0.0.1:${receiver.address().port}/webhooks/${secret}`);
    const created = server.mock.orders.create();
    await server.mock.webhooks.idle();
    const delivery = server.mock.webhooks.deliveries.at(-1);
    expect(order.code === 'DEMO-OPEN', `orders.get gave ${order.code}`);
    expect(delivery?.status === 200 && events[0] === 'new_order', `delivery ${JSON.stringify(delivery)}, events ${events}`);
    return `orders.get, new_order ${created.code} delivered (200)`;
  } finally {
    receiver.close();
    await server.close();
  }
});

await check('feed: writer, checker, handler with ETag', async () => {
  const writer = createFeedWriter({ gzip: true });
  const bytes = new Response(writer.readable).arrayBuffer();
  // The fourth product's name needs CDATA and the fifth repeats the first's id: the writer's
  // deferred check (WebAssembly where the runtime compiles it) hands both to the full checker.
  const names = ['Product 1', 'Product 2', 'Product 3', 'Product 4 & more', 'Product 5'];
  for (const [i, name] of names.entries()) {
    const id = i === 4 ? 'P-1' : `P-${i + 1}`;
    await writer.write({ id, name, link: `https://shop.example.com/p/${i}`, image: 'https://shop.example.com/p.jpg', category: 'A > B', price: 9.9, vat: 24, availability: 'In Stock', manufacturer: 'M', mpn: `MPN-${i}`, ean: '2001001001018', description: 'd', quantity: 1 });
  }
  const written = writer.end();
  expect(written.products === 4 && written.errors[0]?.rule === 'duplicate_id', `the writer's report: ${JSON.stringify(written).slice(0, 300)}`);
  const feed = new Uint8Array(await bytes);
  const report = await checkFeed(feed);
  expect(report.products === 4 && report.errorCount === 0, `checkFeed: ${JSON.stringify(report).slice(0, 300)}`);
  const serve = createFeedHandler({ feed, allowedRanges: false });
  const first = await serve(new Request('http://127.0.0.1/feed.xml.gz'));
  const etag = first.headers.get('etag');
  await first.arrayBuffer();
  const again = await serve(new Request('http://127.0.0.1/feed.xml.gz', { headers: { 'if-none-match': etag ?? '' } }));
  expect(first.status === 200 && etag !== null && again.status === 304, `handler: ${first.status} ${etag} then ${again.status}`);
  return `4 products gzipped (${feed.length} bytes), served 200 then 304`;
});

console.log(JSON.stringify(results));
