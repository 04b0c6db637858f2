/**
 * Type-level test, compiled under `exactOptionalPropertyTypes` by `test/types/strict/tsconfig.json`
 * (`npm run typecheck` runs it; never run). Every option users pass takes an explicit `undefined`
 * where it is optional, so a value read from the environment (`string | undefined`) goes in as is.
 * Without `?: T | undefined` on a member, `undefinedRefused` below names it, and the merchant
 * backend at the end fails to compile (TS2379).
 */
import type {
  AuthorizationUrlOptions,
  ClientCredentialsOptions,
  ClientOptions,
  CpsRejectCallOptions,
  EligibilityOptions,
  ExchangeAuthorizationCodeOptions,
  GetOrderOptions,
  Hooks,
  OrderTrackerOptions,
  ListOptions,
  RejectCallOptions,
  RequestOptions,
  TokenRequestOptions,
  UpdateManyOptions,
  UserTokenOptions,
  WaitForBatchOptions,
} from 'emporio';
import { MarketplaceClient } from 'emporio';
import type { CheckFeedOptions, CsvFeedWriterOptions, FeedHandlerOptions, FeedWriterOptions, OrderBeaconOptions } from 'emporio/feed';
import { createFeedHandler, createFeedWriter } from 'emporio/feed';
import type { RedisStoresOptions } from 'emporio/redis';
import type {
  CreateReturnOptions,
  FaultOptions,
  MockAcceptOptions,
  MockMarketplaceOptions,
  MockOAuthOptions,
  MockRejectOptions,
  RateLimitOptions,
  StartMockMarketplaceOptions,
} from 'emporio/testing';
import { startMockMarketplace } from 'emporio/testing';
import type { ParseWebhookOptions, ProcessInboxOptions, WebhookHandlerOptions } from 'emporio/webhooks';
import { createWebhookHandler } from 'emporio/webhooks';

/** The optional members of `T` that refuse an explicit `undefined` (never when there are none). */
type UndefinedRefused<T> = {
  [K in keyof T]-?: {} extends Pick<T, K> ? ({ [P in K]: undefined } extends Pick<T, K> ? never : K) : never;
}[keyof T];
/** Fails to compile, naming the member, when `Refused` is not `never`. */
function undefinedAccepted<Refused extends never>(_proof?: Refused): void {}

export function everyOptionalMemberTakesUndefined(): void {
  undefinedAccepted<UndefinedRefused<ClientOptions>>();
  undefinedAccepted<UndefinedRefused<Hooks>>();
  undefinedAccepted<UndefinedRefused<RequestOptions>>();
  undefinedAccepted<UndefinedRefused<ListOptions>>();
  undefinedAccepted<UndefinedRefused<GetOrderOptions>>();
  undefinedAccepted<UndefinedRefused<EligibilityOptions>>();
  undefinedAccepted<UndefinedRefused<RejectCallOptions>>();
  undefinedAccepted<UndefinedRefused<CpsRejectCallOptions>>();
  undefinedAccepted<UndefinedRefused<UpdateManyOptions>>();
  undefinedAccepted<UndefinedRefused<WaitForBatchOptions>>();
  undefinedAccepted<UndefinedRefused<AuthorizationUrlOptions>>();
  undefinedAccepted<UndefinedRefused<ClientCredentialsOptions>>();
  undefinedAccepted<UndefinedRefused<ExchangeAuthorizationCodeOptions>>();
  undefinedAccepted<UndefinedRefused<TokenRequestOptions>>();
  undefinedAccepted<UndefinedRefused<UserTokenOptions>>();
  undefinedAccepted<UndefinedRefused<WebhookHandlerOptions>>();
  undefinedAccepted<UndefinedRefused<ParseWebhookOptions>>();
  undefinedAccepted<UndefinedRefused<FeedWriterOptions>>();
  undefinedAccepted<UndefinedRefused<FeedHandlerOptions>>();
  undefinedAccepted<UndefinedRefused<CheckFeedOptions>>();
  undefinedAccepted<UndefinedRefused<OrderBeaconOptions>>();
  undefinedAccepted<UndefinedRefused<RedisStoresOptions>>();
  undefinedAccepted<UndefinedRefused<MockMarketplaceOptions>>();
  undefinedAccepted<UndefinedRefused<StartMockMarketplaceOptions>>();
  undefinedAccepted<UndefinedRefused<FaultOptions>>();
  undefinedAccepted<UndefinedRefused<RateLimitOptions>>();
  undefinedAccepted<UndefinedRefused<MockOAuthOptions>>();
  undefinedAccepted<UndefinedRefused<MockAcceptOptions>>();
  undefinedAccepted<UndefinedRefused<MockRejectOptions>>();
  undefinedAccepted<UndefinedRefused<CreateReturnOptions>>();
  undefinedAccepted<UndefinedRefused<ProcessInboxOptions>>();
  undefinedAccepted<UndefinedRefused<OrderTrackerOptions>>();
  undefinedAccepted<UndefinedRefused<CsvFeedWriterOptions>>();
}

const env: Readonly<Record<string, string | undefined>> = {};
const number = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A merchant backend configured from its environment, as written by users. */
export async function merchantBackend(signal: AbortSignal | undefined): Promise<void> {
  const client = new MarketplaceClient({
    baseUrl: env.BASE_URL,
    vendor: env.VENDOR,
    token: env.TOKEN,
    tokens: { orders: env.ORDERS_TOKEN },
    apiVersion: env.API_VERSION,
    timeout: number(env.TIMEOUT_MS),
    maxRetries: number(env.MAX_RETRIES),
    userAgent: env.USER_AGENT,
    hooks: { onRequest: undefined, onDrift: undefined },
  });
  MarketplaceClient.fromEnv({ vendor: env.VENDOR, timeout: undefined });
  await client.orders.get('DEMO-OPEN', { signal, timeout: number(env.ORDER_TIMEOUT_MS) });
  createWebhookHandler({
    urlSecret: env.WEBHOOK_SECRET,
    vendor: env.VENDOR,
    trustProxy: number(env.TRUSTED_HOPS),
    handlerTimeoutMs: number(env.HANDLER_TIMEOUT_MS),
    onEvent: () => {},
    onError: undefined,
  });
  createFeedWriter({ gzip: env.GZIP === undefined ? undefined : env.GZIP === '1', maxIssues: number(env.MAX_ISSUES) });
  createFeedHandler({ feed: env.FEED_PATH ?? new Uint8Array(), contentType: env.FEED_TYPE, trustProxy: number(env.TRUSTED_HOPS) });
  const server = await startMockMarketplace({ port: number(env.MOCK_PORT), host: env.MOCK_HOST, vendor: env.VENDOR, seed: number(env.SEED) });
  await server.close();
}
