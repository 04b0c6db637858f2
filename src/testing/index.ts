/**
 * `emporio/testing`: a stateful mock marketplace that speaks the documentation's wire protocol, for
 * users' tests, this project's own tests, the demo and the benchmarks.
 *
 *   const mock = createMockMarketplace({ vendor: 'example' });
 *   setupServer(...mock.handlers);                        // msw (or mswHandlers from emporio/testing/msw)
 *   new MarketplaceClient({ ..., fetch: mock.fetch });    // or no sockets at all
 *   const server = await startMockMarketplace({ port: 0 }); // or a real loopback server
 *   createWebhookHandler({ ...mockDeliveryOptions(secret), onEvent }); // a receiver that accepts the mock's webhooks
 */
import { createMockCore, type MockMarketplace, type MockMarketplaceOptions } from './mock.js';
import { type ListenOptions, listen } from './server.js';

export { type MockDeliveryOptions, mockDeliveryOptions } from './delivery-options.js';


export function createMockMarketplace(options: MockMarketplaceOptions = {}): MockMarketplace {
  return createMockCore(options).mock;
}

export interface StartMockMarketplaceOptions extends ListenOptions, Omit<MockMarketplaceOptions, 'baseUrl'> {}

export interface RunningMockMarketplace {
  /** `http://127.0.0.1:<port>`: the client's baseUrl. */
  url: string;
  mock: MockMarketplace;
  /** Stops the server and the webhook sender. */
  close(): Promise<void>;
}

/** Starts the mock on a loopback port (0: any free port); the mock's baseUrl is the server's URL. */
export async function startMockMarketplace(options: StartMockMarketplaceOptions = {}): Promise<RunningMockMarketplace> {
  const { port, host, ...mockOptions } = options;
  const server = await listen({ port, host });
  const { mock, handle } = createMockCore({ ...mockOptions, baseUrl: server.url });
  server.setHandler(handle);
  return {
    url: server.url,
    mock,
    async close() {
      mock.close();
      await server.close();
    },
  };
}

export type { MockMarketplace, MockMarketplaceOptions, MswHandlerList, RequestLogEntry, TokenList } from './mock.js';
export type { FaultKind, FaultOptions, FaultPhase, InjectedFault } from './faults.js';
export type { DeliveryAttempt, ReturnWebhookDelivery, WebhookDelivery } from './events/webhook-sender.js';
export type { CreateReturnOptions, ReturnDecision } from './returns.js';
export type { MockClock } from './clock.js';
export type { RateLimitOptions } from './rate-limit.js';
export type { ShopState, BatchRecord } from './products.js';
export type { CancelledBy, TrackingDetail } from './order-record.js';
export type { OrdersListingMode } from './order-listing.js';
export type { MockFbsProduct, MockPurchaseOrder, MockPurchaseOrderLine, MockSupplier } from './fbs.js';
export type { MockCpsLineItem, MockCpsOrder } from './cps.js';
export type { MockOAuthOptions } from './oauth.js';
export type {
  Change,
  InventoryItem,
  InventoryVariation,
  MockAcceptOptions,
  MockCustomer,
  MockLineItem,
  MockOrder,
  MockRejectOptions,
  MockReturn,
  MockReturnEvent,
  MockWebhookEvent,
  OrderOverrides,
  OrderState,
} from './types.js';
