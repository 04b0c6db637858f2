/**
 * Handling one order, start to pickup:
 *   read it → accept it with the first offered pickup window (express orders are accepted
 *   by the marketplace itself) → upload the invoice if the customer asked for one → mark it
 *   ready for pickup when the shop is in the Set as Ready programme and the order qualifies.
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/order-handling.ts
 * Run against a real service:
 *   EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_TOKEN=... \
 *     npx tsx examples/order-handling.ts 260330-1000001 ./invoice.pdf
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { canSetAsReady, isOrderAlreadyAccepted, MarketplaceClient } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

export async function handleOrder(client: MarketplaceClient, code: string, invoice: () => Promise<Uint8Array>): Promise<void> {
  let order = await client.orders.get(code);
  console.log(`order ${order.code}: ${order.state}, ${order.line_items?.length ?? 0} line item(s)`);

  if (order.state === 'open') {
    const location = order.accept_options?.pickup_location?.[0]?.id;
    const window = order.accept_options?.pickup_window?.[0];
    if (order.express) {
      // Document 1, rule 1: express orders cannot be accepted through the API.
      console.log('express order: the marketplace accepts it automatically');
    } else if (location == null || window?.id == null) {
      console.log('no pickup location or window offered: handle this order in the merchant panel');
      return;
    } else {
      try {
        // Sent once, never retried; a lost answer is settled by reading the order back.
        await client.orders.accept(code, { pickup_location: location, pickup_window: window.id });
        console.log(`accepted: pickup ${window.label ?? window.id}`);
      } catch (error) {
        if (!isOrderAlreadyAccepted(error)) throw error;
        console.log('already accepted (by an earlier run)');
      }
    }
    order = await client.orders.get(code);
  }
  if (order.state !== 'accepted') {
    console.log(`nothing more to do in state ${order.state}`);
    return;
  }

  if (order.invoice && !order.uploaded_invoice_file) {
    // The type comes from the file's first bytes (PDF, PNG or JPEG), at most 7 MiB.
    await client.orders.uploadInvoice(code, await invoice(), { filename: `invoice-${code}.pdf` });
    console.log('invoice uploaded');
  }

  if (order.set_as_ready_required) {
    // From 2026-03-30 a voucher download no longer marks the order ready for enrolled shops.
    const eligibility = canSetAsReady(order);
    if (eligibility.ok) {
      await client.orders.setAsReady(code, { order });
      console.log('marked ready for pickup: the courier is notified');
    } else {
      console.log(`not marked ready: ${eligibility.reasons.join('; ')}`);
    }
  } else {
    console.log('shop not in the Set as Ready programme: downloading the voucher marks the order ready');
  }
}

/** A tiny valid PDF, standing in for the merchant's invoice. */
const samplePdf = async () =>
  new TextEncoder().encode('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

async function main(): Promise<void> {
  const baseUrl = process.env.EMPORIO_BASE_URL;
  if (baseUrl) {
    const [code, invoicePath] = process.argv.slice(2);
    if (!code) throw new Error('usage: order-handling.ts <order code> [invoice file]');
    const client = new MarketplaceClient({ baseUrl, vendor: process.env.EMPORIO_VENDOR ?? 'marketplace', token: process.env.EMPORIO_TOKEN });
    await handleOrder(client, code, invoicePath ? () => readFile(invoicePath) : samplePdf);
    return;
  }

  const server = await startMockMarketplace({ port: 0 });
  try {
    const { mock } = server;
    const client = new MarketplaceClient({
      baseUrl: server.url,
      vendor: mock.vendor,
      tokens: { orders: mock.tokens.orders },
    });
    const order = mock.orders.create({ invoice: true });
    await handleOrder(client, order.code, samplePdf);
    const final = mock.orders.get(order.code);
    console.log(`mock now holds: state ${final?.state}, ready ${final?.is_ready_for_dispatch}, invoice ${final?.uploaded_invoice_file}`);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
