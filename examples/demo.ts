/**
 * `npm run demo`: a merchant's day against the embedded mock marketplace, over real loopback HTTP.
 *
 * 1. The mock marketplace and a webhook receiver (createWebhookHandler) start on 127.0.0.1; the
 *    receiver's URL carries a secret (deliveries are unsigned), registered with the marketplace.
 *    The receiver stores each delivery in an inbox and answers at once; a worker (processInbox)
 *    hands the events to the merchant's code, and retries them: the order system is down for the
 *    first moments of the demo, and no order is lost.
 * 2. Orders arrive by webhook; each new order is read, accepted with the first offered pickup
 *    window (express orders are left to the marketplace), invoiced when the customer asked for
 *    an invoice, and marked ready when the shop is in the Set as Ready programme.
 * 3. One order is cancelled by its customer after the shop accepted it and set it as ready (a
 *    customer may cancel an accepted order, even a ready or dispatched one, so a ready order can
 *    still end cancelled); another goes on to dispatch and a return, which its customer asks for
 *    and the shop approves from the returns webhook (registered at its own URL) with returns.review.
 * 4. 5,000 products are synced with updateMany; then three updates wait for their batch's results
 *    (the marketplace processes a batch after taking it): one applied, one unchanged, one unknown.
 * 5. A catalog category is crawled page by page, and one SKU read with its offers and reviews.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canSetAsReady, MarketplaceClient, type ProductUpdate, type ReturnEvent, type WebhookEvent } from 'emporio';
import { mockDeliveryOptions, startMockMarketplace } from 'emporio/testing';
import { createMemoryInbox, createWebhookHandler, isReturnEvent, processInbox, toNodeHandler } from 'emporio/webhooks';

const started = Date.now();
const say = (line: string) => console.log(line);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

// A one-page PDF is enough for the invoice upload: the SDK checks the type by its first bytes.
const INVOICE_PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function main(): Promise<void> {
  // 1. The marketplace, and the merchant's webhook receiver.
  // Batch results show 200 ms after a batch is taken (the service takes seconds to minutes).
  const marketplace = await startMockMarketplace({ port: 0, webhookIntervalMs: 50, batchDelayMs: 200 });
  const { mock } = marketplace;
  const client = new MarketplaceClient({ baseUrl: marketplace.url, vendor: mock.vendor, tokens: mock.tokens });

  const received: WebhookEvent[] = [];
  const log: string[] = [];
  const note = (code: string, text: string) => log.push(`  ${code}  ${text}`);

  // The secret in the webhook URL: the marketplace signs nothing, so the URL is what only it knows.
  const urlSecret = randomUUID();
  const refused: string[] = [];
  // The inbox: a delivery that passes the checks is stored and answered 200 at once, before any of
  // the shop's code runs (Redis in production: redisStores(redis).inbox; here, memory).
  const inbox = createMemoryInbox();
  const handler = createWebhookHandler({
    // The secret, and the mock's loopback address besides the published ranges; production keeps
    // the published ranges only (the default).
    ...mockDeliveryOptions(urlSecret),
    inbox,
    // Every delivery not answered 200, with why (never the secret or the body).
    onError: (_error, { status, reason }) => refused.push(`${status} ${reason}`),
  });
  // The shop's order system is down for the demo's first 300 ms: its events wait in the inbox.
  const systemBackAt = Date.now() + 300;
  let retried = 0;
  const worker = new AbortController();
  const working = processInbox({
    inbox,
    signal: worker.signal,
    retryDelayMs: 100, // production keeps the default: 1 s, doubling up to 10 minutes, for 24 hours
    onError: () => retried++,
    onEvent: async (event) => {
      if (Date.now() < systemBackAt) throw new Error('order system unavailable');
      await handleEvent(event);
      received.push(event);
    },
  });
  async function handleEvent(event: WebhookEvent): Promise<unknown> {
    // An event type newer than this SDK arrives whole in `event.raw`; nothing is dropped.
    if ('raw' in event) return note(event.order?.code ?? '?', `webhook: unknown event ${event.event_type}`);
    if (isReturnEvent(event)) return handleReturn(client, event, note);
    if (event.event_type === 'new_order') return handleNewOrder(client, event.order.code, note);
    const state = event.changes?.state;
    if (!state) return;
    const why = state.new === 'cancelled' ? ' (the customer cancelled before dispatch)' : '';
    note(event.order.code, `webhook: state ${state.old} → ${state.new}${why}`);
  }
  /** Until the worker has handled every delivery the receiver answered 200 (bounded: 30 s). */
  const settled = async () => {
    for (let i = 0; i < 3_000; i++) {
      const stored = [...mock.webhooks.deliveries, ...mock.returnWebhooks.deliveries].filter((d) => d.status === 200).length;
      if (received.length >= stored) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the inbox worker did not catch up within 30 s');
  };
  const receiver = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  mock.webhooks.register(`${receiverBase}/${urlSecret}`); // what the merchant panel is given
  mock.returnWebhooks.register(`${receiverBase}/returns/${urlSecret}`); // the returns webhook has its own URL
  say(`mock marketplace on ${marketplace.url}, webhook receiver on ${receiverBase}/<secret>`);

  try {
    // 2. Orders arrive.
    say('\norders');
    const regular = mock.orders.create({});
    const express = mock.orders.create({ express: true });
    const invoiced = mock.orders.create({ invoice: true });
    const toCancel = mock.orders.create({});
    await mock.webhooks.idle();
    await settled();
    mock.orders.autoAccept(express.code); // the marketplace's own mechanism accepts express orders

    // 3. The customer cancels one that the shop already accepted and set as ready (cancelling is
    //    allowed after acceptance, even after dispatch); another goes to pickup and comes back.
    mock.orders.cancel(toCancel.code, { by: 'user' });
    mock.orders.dispatch(regular.code);
    const { return_code } = mock.returns.create(regular.code, { reason: 'faulty', user_comment: 'It stopped charging.' });
    await mock.returnWebhooks.idle();
    await settled(); // the worker reviews it: see handleReturn
    mock.returns.setTracking(return_code);
    mock.returns.markReturned(return_code);
    mock.orders.returnOrder(regular.code);
    await Promise.all([mock.webhooks.idle(), mock.returnWebhooks.idle()]);
    await settled();
    for (const line of log) say(line);
    const invoiceFile = mock.orders.get(invoiced.code)?.uploaded_invoice_file;
    say(`  ${received.length} webhook events handled (${retried} attempts failed while the order system was down, retried from the inbox); invoice on file: ${invoiceFile ? 'yes' : 'no'}`);
    const answered = [...mock.webhooks.deliveries, ...mock.returnWebhooks.deliveries].map((d) => d.status ?? d.error);
    const guess = await fetch(`${receiverBase}/orders`, { method: 'POST', body: '{}' });
    say(`  ${answered.length} deliveries to the secret URLs answered ${[...new Set(answered)].join(', ')}; a POST without the secret: ${guess.status} (onError: ${refused.join(', ')})`);

    // 4. Inventory.
    say('\ninventory');
    const report = await client.products.updateMany(feed(5_000), {
      onProgress: ({ sent, applied, failed }) => progress(sent, 5_000, `${applied} applied, ${failed} failed`),
    });
    progressDone();
    say(
      `  ${report.applied.length} applied, ${report.failed.length} failed, ${report.duplicates.length} duplicates, ` +
        `${report.requests} requests; the marketplace now lists ${mock.inventory.size} products`,
    );
    // The marketplace takes a batch at once and processes its products afterwards: wait for the results.
    const checked = await client.products.updateMany(
      [
        { product_id: 'SKU-00001', quantity: 1, enabled: true, price: 991 }, // as synced above: no change
        { product_id: 'SKU-00002', quantity: 9, enabled: true, price: 1499 }, // a new price
        { product_id: 'UNKNOWN-00001', quantity: 1, enabled: true, price: 500 }, // not in the shop's catalogue
      ],
      { awaitResults: true, waitOptions: { intervalMs: 100 } },
    );
    const failures = checked.failed.map((f) => `${f.product_id} (${f.error.message})`).join(', ');
    say(`  batch ${checked.batches[0]}: applied ${checked.applied.join(', ')}; unchanged ${checked.unchanged.join(', ')}; failed ${failures}`);

    // 5. Catalog.
    say('\ncatalog');
    const leaf = mock.catalog.ids.leaf;
    let pages = 0;
    let skus = 0;
    let cheapest = { name: '', price: Number.POSITIVE_INFINITY };
    for await (const page of client.catalog.categories.skus(leaf, { per: 25 }).pages()) {
      pages++;
      for (const sku of page.items) {
        skus++;
        if (typeof sku.price_min === 'number' && sku.price_min < cheapest.price) {
          cheapest = { name: sku.name ?? String(sku.id), price: sku.price_min };
        }
      }
    }
    say(`  category ${leaf}: ${skus} SKUs over ${pages} pages; cheapest ${cheapest.name} at €${cheapest.price}`);
    const skuId = mock.catalog.ids.sku;
    const sku = await client.catalog.skus.get(skuId);
    const offers = await client.catalog.skus.products(skuId);
    const reviews = await client.catalog.skus.reviews(skuId, { include_meta: 'sku_rating_breakdown' });
    say(`  SKU ${sku.id} "${sku.name}": ${offers.items.length} offers, ${reviews.items.length} reviews on the first page`);
    const rate = client.rateLimit;
    if (rate) say(`  rate limit: ${rate.remaining} of ${rate.limit} left this minute`);

    say(`\ndone in ${elapsed()}`);
  } finally {
    worker.abort();
    await working;
    receiver.close();
    await marketplace.close();
  }
}

/** What a merchant's webhook consumer does with a new order. */
async function handleNewOrder(
  client: MarketplaceClient,
  code: string,
  note: (code: string, text: string) => void,
): Promise<void> {
  let order = await client.orders.get(code);
  if (order.express) {
    note(code, 'new express order: the API cannot accept express orders, the marketplace does');
    return;
  }
  const location = order.accept_options?.pickup_location?.[0];
  const window = order.accept_options?.pickup_window?.[0];
  if (location?.id == null || window?.id == null) {
    note(code, 'new order without pickup options: left for the merchant panel');
    return;
  }
  await client.orders.accept(code, { pickup_location: location.id, pickup_window: window.id });
  note(code, `accepted, pickup ${window.label} at ${location.label}`);

  if (order.invoice) {
    await client.orders.uploadInvoice(code, INVOICE_PDF);
    note(code, 'invoice uploaded (PDF)');
  }
  order = await client.orders.get(code);
  if (order.set_as_ready_required && canSetAsReady(order).ok) {
    await client.orders.setAsReady(code, { order });
    note(code, 'set as ready: the courier is notified');
  }
}

/** What a merchant's returns webhook consumer does: review a new return (here: approve it), follow its state. */
async function handleReturn(client: MarketplaceClient, event: ReturnEvent, note: (code: string, text: string) => void): Promise<void> {
  const { return: parcel, changes } = event;
  const order = parcel.order_code ?? '?';
  if (event.event_type === 'merchant_return_created') {
    const item = parcel.return_line_items?.[0];
    const options = parcel.review_options?.map((o) => o.option) ?? [];
    if (!options.includes('approve')) return note(order, `webhook: return ${parcel.return_code} asked: left for the merchant panel`);
    // Passing the return (not its code) checks the decision against its review_options before sending.
    await client.returns.review(parcel, { option: 'approve' });
    note(order, `webhook: return ${parcel.return_code} asked (${item?.return_reason}: "${item?.user_comment}"); approved, of ${options.length} options`);
    return;
  }
  if (changes?.state) note(order, `webhook: return ${parcel.return_code} ${changes.state.old} → ${changes.state.new}${parcel.courier ? ` (${parcel.courier})` : ''}`);
}

/** A feed of product updates, streamed: updateMany never holds it all. */
async function* feed(count: number): AsyncGenerator<ProductUpdate> {
  for (let i = 1; i <= count; i++) {
    yield { product_id: `SKU-${String(i).padStart(5, '0')}`, quantity: i % 17, enabled: i % 17 !== 0, price: 990 + i };
  }
}

let lastShown = -1;
function progress(done: number, total: number, detail: string): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const bar = `  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${detail}`;
  if (process.stdout.isTTY) process.stdout.write(`\r${bar}`);
  else if (Math.floor((done / total) * 4) !== lastShown) {
    lastShown = Math.floor((done / total) * 4);
    console.log(bar);
  }
}

function progressDone(): void {
  if (process.stdout.isTTY) process.stdout.write('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
