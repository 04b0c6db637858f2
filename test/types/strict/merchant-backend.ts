// biome-ignore-all lint/complexity/useLiteralKeys: noPropertyAccessFromIndexSignature, which this file is compiled with, asks for env['NAME'].
/**
 * A merchant backend using every entry, configured from its environment as users write it. Compiled
 * (never run) here under the repository's settings and exactOptionalPropertyTypes, and by
 * scripts/smoke-packed.mjs against the packed package with the strictest settings users have
 * (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, noPropertyAccessFromIndexSignature,
 * verbatimModuleSyntax), with moduleResolution node16 and bundler.
 */
import { createServer } from 'node:http';
import { type ClientOptions, MarketplaceClient, NotFoundError, type Order } from 'emporio';
import { checkFeed, createFeedHandler, createFeedWriter, type FeedProduct, toNodeHandler as feedToNode } from 'emporio/feed';
import { type NodeRedisClientLike, redisStores } from 'emporio/redis';
import { createMockMarketplace, type MockMarketplaceOptions, startMockMarketplace } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler, type WebhookEvent } from 'emporio/webhooks';

const env = process.env;
const numberFrom = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** Unset variables go in as undefined: the client refuses a missing baseUrl, vendor or token when made. */
export const clientOptions: ClientOptions = {
  baseUrl: env['EMPORIO_BASE_URL'],
  vendor: env['EMPORIO_VENDOR'],
  token: env['EMPORIO_TOKEN'],
  tokens: { orders: env['EMPORIO_ORDERS_TOKEN'], products: env['EMPORIO_PRODUCTS_TOKEN'] },
  apiVersion: env['EMPORIO_API_VERSION'],
  timeout: numberFrom(env['EMPORIO_TIMEOUT_MS']),
  maxRetries: numberFrom(env['EMPORIO_MAX_RETRIES']),
  userAgent: env['APP_USER_AGENT'],
};

export function backend(redis: NodeRedisClientLike): { close(): void } {
  const stores = redisStores(redis, { prefix: env['REDIS_PREFIX'], timeoutMs: numberFrom(env['REDIS_TIMEOUT_MS']) });
  const client = new MarketplaceClient({ ...clientOptions, cache: stores.cache, rateLimitStore: stores.rateLimitStore });

  const onEvent = async (event: WebhookEvent): Promise<void> => {
    const code = event.event_type === 'new_order' ? event.order?.code : undefined;
    if (code === undefined) return;
    const order: Order = await client.orders.get(code, { timeout: numberFrom(env['ORDER_TIMEOUT_MS']) });
    // noUncheckedIndexedAccess: the first option may not be there.
    const location = order.accept_options?.pickup_location?.[0]?.id;
    const window = order.accept_options?.pickup_window?.[0]?.id;
    if (location != null && window != null) await client.orders.accept(order.code, { pickup_location: location, pickup_window: window });
  };
  const webhooks = createWebhookHandler({
    urlSecret: env['WEBHOOK_SECRET'],
    trustProxy: numberFrom(env['TRUSTED_PROXY_HOPS']),
    dedupe: stores.dedupe,
    vendor: env['EMPORIO_VENDOR'],
    onEvent,
  });
  const feed = createFeedHandler({ feed: env['FEED_PATH'] ?? 'feed.xml.gz', trustProxy: numberFrom(env['TRUSTED_PROXY_HOPS']), contentType: env['FEED_TYPE'] });
  const server = createServer(env['SERVE_FEED'] === '1' ? feedToNode(feed) : toNodeHandler(webhooks));
  server.listen(numberFrom(env['PORT']) ?? 8080);
  return { close: () => server.close() };
}

export async function nightlyFeed(products: readonly FeedProduct[]): Promise<number> {
  const writer = createFeedWriter({ gzip: env['FEED_GZIP'] === undefined ? undefined : env['FEED_GZIP'] === '1', maxIssues: numberFrom(env['FEED_MAX_ISSUES']) });
  const bytes = new Response(writer.readable).arrayBuffer();
  for (const product of products) await writer.write(product);
  writer.end();
  const report = await checkFeed(new Uint8Array(await bytes));
  return report.products;
}

/** The test set-up: the mock, from the same kind of settings. */
export async function againstTheMock(): Promise<boolean> {
  const settings: MockMarketplaceOptions = { vendor: env['EMPORIO_VENDOR'], seed: numberFrom(env['MOCK_SEED']), webhookIntervalMs: numberFrom(env['MOCK_WEBHOOK_MS']) };
  const inProcess = createMockMarketplace(settings);
  inProcess.close();
  const server = await startMockMarketplace({ ...settings, port: numberFrom(env['MOCK_PORT']), host: env['MOCK_HOST'] });
  try {
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens });
    const missing = await client.orders.get('NOPE-1').catch((error: unknown) => error);
    const sku = server.mock.catalog.ids.sku;
    const first = await client.catalog.skus.get(sku);
    const page = await client.catalog.categories.skus(40, { per: 50 });
    return missing instanceof NotFoundError && first.id === sku && (page.items[0]?.id ?? 0) > 0;
  } finally {
    await server.close();
  }
}
