/**
 * FBS restock: read the marketplace warehouse's stock, order more of every product that runs
 * low with one purchase order, and list that purchase order's line items.
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/fbs-restock.ts
 * Run against the real service (the orders token serves the FBS API):
 *   EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_TOKEN=... \
 *     npx tsx examples/fbs-restock.ts
 */
import { pathToFileURL } from 'node:url';
import { MarketplaceClient, type PurchaseOrderLineInput } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

/** Below this many units a product is restocked up to `TARGET`. */
const LOW = 5;
const TARGET = 20;

/** `YYYY-MM-DD`, `days` from today. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Returns the new purchase order's code, or undefined when nothing runs low. */
export async function restock(client: MarketplaceClient): Promise<string | undefined> {
  const lines: PurchaseOrderLineInput[] = [];
  // Every page of the warehouse's stock, fetched as the loop goes.
  for await (const product of client.fbs.products.list({ per: 100 })) {
    if (!product.active || !product.shop_uid || (product.quantity ?? 0) >= LOW) continue;
    console.log(`low: ${product.shop_uid} has ${product.quantity ?? 0}`);
    lines.push({
      product_uid: product.shop_uid,
      expected_quantity: TARGET - (product.quantity ?? 0),
      keep_serial_numbers: false,
      has_expiration_date: false,
      storage_conditions: 0, // dry
    });
  }
  if (lines.length === 0) {
    console.log('nothing runs low');
    return undefined;
  }

  const [supplier] = await client.fbs.suppliers.list();
  if (!supplier) throw new Error('no supplier: create one with client.fbs.suppliers.create({ name, ... })');
  const { code } = await client.fbs.purchaseOrders.create({ expected_date: dayFromNow(3), supplier_id: supplier.id, line_items: lines });
  if (!code) {
    // Some service versions answer only { success: true }: the purchase order exists; do not create it again.
    console.log('purchase order made; its code was not in the answer (see client.fbs.purchaseOrders.list())');
    return undefined;
  }
  console.log(`purchase order ${code} from ${supplier.name ?? supplier.id}:`);
  for (const item of await client.fbs.purchaseOrders.lineItems(code)) {
    console.log(`  ${item.shop_uid}: expected ${item.expected_quantity}, counted ${item.actual_quantity ?? '(not yet received)'}`);
  }
  return code;
}

async function main(): Promise<void> {
  const baseUrl = process.env.EMPORIO_BASE_URL;
  if (baseUrl) {
    await restock(new MarketplaceClient({ baseUrl, vendor: process.env.EMPORIO_VENDOR ?? 'marketplace', token: process.env.EMPORIO_TOKEN }));
    return;
  }

  const server = await startMockMarketplace({ port: 0 });
  try {
    const { mock } = server;
    mock.fbs.setStock('SKU-100', 2);
    mock.fbs.setStock('SKU-200', 40);
    mock.fbs.setStock('SKU-300', 0);
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: mock.vendor, tokens: { orders: mock.tokens.orders } });
    const code = await restock(client);
    if (code === undefined) return;
    // The warehouse receives the delivery (a kit control): the stock and the counted quantities follow.
    mock.fbs.receive(code);
    for (const item of await client.fbs.purchaseOrders.lineItems(code)) {
      console.log(`  received ${item.shop_uid}: counted ${item.actual_quantity}`);
    }
    const stock = (await client.fbs.products.list()).items.map((p) => `${p.shop_uid}=${p.quantity}`);
    console.log(`stock after receipt: ${stock.join(', ')}`);
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
