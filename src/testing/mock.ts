/**
 * The mock marketplace's core: one WHATWG fetch handler (`mock.fetch`) that checks the wire
 * protocol (Accept and version, bearer token per API, rate limits), routes to the area modules,
 * and injects faults. msw handlers (emporio/testing/msw), the loopback server and the CLI all wrap it.
 */
import { createRequire } from 'node:module';
import { buildMswHandlers, type MswModule } from './msw-handlers.js';
import { createHash } from 'node:crypto';
import { createAccount } from './account.js';
import { createCatalog } from './catalog.js';
import { createClock, type MockClock } from './clock.js';
import { createCps } from './cps.js';
import { handleAdmin } from './admin.js';
import { createWebhookSender, RETURN_EVENTS, type ReturnWebhookDelivery, type WebhookDelivery } from './events/webhook-sender.js';
import { sleep } from '../core/time.js';
import { createFaults, type FaultOptions, type InjectedFault } from './faults.js';
import { createFbs } from './fbs.js';
import { createOAuth, type MockOAuthOptions } from './oauth.js';
import { createOrders } from './orders.js';
import { createOrderListing, type OrdersListingMode } from './order-listing.js';
import { createProducts } from './products.js';
import { createRandom } from './random.js';
import { createReturns } from './returns.js';
import { lastMileCourier } from '../schemas/vendor.js';
import { createRateLimiter, type RateLimitOptions, setRateLimitHeaders, type RateLimitState } from './rate-limit.js';
import { type Api, type Route, Router } from './router.js';
import { createTriggers } from './triggers.js';
import type { CoreContext } from './context.js';
import type { MockReturnEvent, MockWebhookEvent } from './types.js';
import { json, parseMediaType, WireFailure, wireError } from './wire.js';

export type TokenList = string | readonly string[];

export interface MockMarketplaceOptions {
  /** Operator name in `Accept: application/vnd.<vendor>+json` and the webhook User-Agent. Default 'marketplace'. */
  vendor?: string | undefined;
  /** Where msw intercepts and what URLs under the mock (invoice files, vouchers) start with. Default 'https://api.marketplace.test'. */
  baseUrl?: string | undefined;
  /**
   * Accepted bearer tokens per API (one or several each). Defaults 'test-orders-token',
   * 'test-products-token', 'test-catalog-token', 'test-account-token', 'test-cps-token'.
   * FBS calls take the orders tokens.
   */
  tokens?: { orders?: TokenList | undefined; products?: TokenList | undefined; catalog?: TokenList | undefined; account?: TokenList | undefined; cps?: TokenList | undefined } | undefined;
  /** The OAuth application and token lifetimes of `/oauth2/token`. */
  oauth?: MockOAuthOptions | undefined;
  /** Seed of generated data (order ids, catalog) and, unless `faults.seed` is set, of faults. Default 1. */
  seed?: number | undefined;
  /** Base clock (epoch ms); `mock.clock.advance` moves the mock's time ahead of it. Default Date.now. */
  clock?: (() => number) | undefined;
  /** Fault injection; off when absent. */
  faults?: FaultOptions | undefined;
  /** Load the sandbox DEMO-* orders (default true). */
  seedDemoOrders?: boolean | undefined;
  /** Wait between webhook attempts; default 300,000 (5 minutes, like the service). Tests use a few ms. */
  webhookIntervalMs?: number | undefined;
  /** One webhook attempt's time-out; default 10,000 ms. */
  webhookTimeoutMs?: number | undefined;
  /** Attempts per event and URL; default 4 (the merchant API documentation). */
  webhookMaxAttempts?: number | undefined;
  /** fetch used by the webhook sender; default the global fetch. */
  webhookFetch?: typeof fetch | undefined;
  /** Catalog and account budget per token (the Catalog API documentation: 100 a minute); false turns it off. */
  rateLimit?: RateLimitOptions | false | undefined;
  /** The same for the merchant APIs; off by default (the merchant API documentation shows no limits). */
  merchantRateLimit?: RateLimitOptions | undefined;
  /** How long (mock clock ms) a Products API batch stays `in_progress` before its results show. Default 1,000. */
  batchDelayMs?: number | undefined;
  /**
   * The orders listing shop plugins use (`GET /merchants/ecommerce/orders`, not in the service's
   * documentation): `'served'` (default), or 404 / 405 as a service without it answers.
   * `mock.orders.setListing` changes it at run time.
   */
  ordersListing?: OrdersListingMode | undefined;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The status answered, or 'dropped' for a dropped connection. */
  status: number | 'dropped';
  fault?: InjectedFault['kind'] | undefined;
}

/**
 * msw request handlers, typed loosely (`never`, so they spread into `setupServer(...)`) so that
 * `emporio/testing` needs no msw types: `mswHandlers(mock)` from `emporio/testing/msw` gives the
 * same list with msw's own type.
 */
export type MswHandlerList = readonly never[];

/**
 * Returned by `handle` for a dropped connection; each wrapper drops it its own way.
 * @internal
 */
export const DROPPED = Symbol('dropped connection');
/** @internal */
export type HandleResult = Response | typeof DROPPED;

const DEFAULT_TOKENS = {
  orders: 'test-orders-token',
  products: 'test-products-token',
  catalog: 'test-catalog-token',
  account: 'test-account-token',
  cps: 'test-cps-token',
} as const;
const REQUEST_LOG_LIMIT = 10_000;
/** Accept values that ask for no particular API version. */
const GENERIC_MEDIA_TYPES = new Set(['*/*', 'application/*', 'application/json']);

/** Which permission an account path needs (the Catalog API documentation, Authentication), named in a 403. */
const permissionOf = (path: string) =>
  path.startsWith('/favorite') || /^\/(skus\/[^/]+\/favorite|categories\/[^/]+\/favorites)$/.test(path)
    ? 'favorites'
    : path.startsWith('/notifications')
      ? 'notifications'
      : /^\/skus\/[^/]+\/reviews/.test(path)
        ? 'publish_sku_review_actions'
        : 'user';

/** The mock and its request handler; `createMockMarketplace` and the server wrap it. @internal */
export function createMockCore(options: MockMarketplaceOptions = {}) {
  const vendor = options.vendor ?? 'marketplace';
  const baseUrl = (options.baseUrl ?? 'https://api.marketplace.test').replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const baseHost = new URL(baseUrl).hostname;
  const seed = options.seed ?? 1;
  const tokens = {
    orders: toList(options.tokens?.orders ?? DEFAULT_TOKENS.orders),
    products: toList(options.tokens?.products ?? DEFAULT_TOKENS.products),
    catalog: toList(options.tokens?.catalog ?? DEFAULT_TOKENS.catalog),
    account: toList(options.tokens?.account ?? DEFAULT_TOKENS.account),
    cps: toList(options.tokens?.cps ?? DEFAULT_TOKENS.cps),
  };
  for (const [api, list] of Object.entries(tokens)) {
    if (list.length === 0 || list.some((t) => typeof t !== 'string' || t === '')) {
      throw new TypeError(`tokens.${api} must be a non-empty string or list of strings`);
    }
  }

  const events: MockWebhookEvent[] = [];
  const listeners = new Set<(event: MockWebhookEvent) => void>();
  const requests: RequestLogEntry[] = [];
  let requestCounter = 0;

  const senderOptions = {
    vendor,
    intervalMs: options.webhookIntervalMs ?? 300_000,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    maxAttempts: options.webhookMaxAttempts ?? 4,
    fetch: options.webhookFetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)),
  };
  const sender = createWebhookSender(senderOptions);
  // The returns webhook: its own URLs (registered apart in the merchant panel), the same notifier.
  const returnsSender = createWebhookSender<MockReturnEvent, ReturnWebhookDelivery>(senderOptions, RETURN_EVENTS);
  const returnEvents: MockReturnEvent[] = [];

  const clock: MockClock = createClock(options.clock ?? Date.now, () => orders.kit.expireDue());
  const emit = (event: MockWebhookEvent) => {
    events.push(event);
    sender.send(event);
    for (const listener of listeners) listener(event);
  };
  const orders = createOrders({
    vendor,
    baseUrl: () => baseUrl,
    now: clock.now,
    random: createRandom(seed),
    emit,
    resend: (code) => sender.resend(code),
  });
  if (options.seedDemoOrders !== false) orders.seedDemoOrders();
  const listing = createOrderListing({ orders: orders.kit.list, expireDue: orders.kit.expireDue }, options.ordersListing);
  const products = createProducts({ now: clock.now, batchDelayMs: options.batchDelayMs ?? 1_000 });
  const faults = createFaults(options.faults, seed);

  const catalogLimiter = options.rateLimit === false ? undefined : createRateLimiter(options.rateLimit ?? {}, clock.now);
  const merchantLimiter = options.merchantRateLimit ? createRateLimiter(options.merchantRateLimit, clock.now) : undefined;

  const core: CoreContext = { vendor, baseUrl, seed, now: clock.now };
  const catalog = createCatalog(core);
  const account = createAccount(core, {
    sku: (id) => catalog.skus.get(id),
    firstSkus: () => catalog.kit.skus(catalog.kit.ids.leaf).slice(0, 3),
  });
  const random = createRandom(seed + 1);
  const fbs = createFbs({ now: clock.now, random });
  const cps = createCps({ now: clock.now, random });
  const oauth = createOAuth({ now: clock.now, random }, options.oauth);
  const returns = createReturns({
    vendor,
    now: clock.now,
    random: createRandom(seed + 2),
    order: (code) => orders.kit.get(code),
    ownCourier: lastMileCourier(vendor.toLowerCase()),
    send: (event, to) => {
      returnEvents.push(event);
      returnsSender.send(event, to);
    },
    urls: () => returnsSender.urls,
  });
  const triggers = createTriggers({ baseUrl: () => baseUrl, now: clock.now, order: (code) => orders.kit.get(code), emit });
  const router = new Router().add(
    ...orders.routes,
    ...listing.routes,
    ...triggers.routes,
    ...returns.routes,
    ...fbs.routes,
    ...cps.routes,
    ...products.routes,
    ...catalog.routes,
    ...account.routes,
    ...oauth.routes,
  );

  const checkAccept = (request: Request, api: Api): Response | undefined => {
    const media = parseMediaType(request.headers.get('accept'));
    const merchant = api === 'orders' || api === 'products' || api === 'cps';
    const wanted = `application/vnd.${vendor.toLowerCase()}+json`;
    const expected = merchant ? `${wanted}; version=3.0` : `${wanted}; version=<major.minor>`;
    // Document 2: no version given, the latest is served; an Accept naming no media type of the API's own names none.
    if (!merchant && (media === undefined || GENERIC_MEDIA_TYPES.has(media.type))) return undefined;
    if (media?.type !== wanted) return wireError(406, 'not_acceptable', `Accept must be ${expected}.`);
    const version = media.params.get('version');
    // Merchant calls need 3.0; v3 calls take any 3.x (a patch is ignored, no version means the latest).
    const ok = merchant ? version !== undefined && /^3\.0(\.\d+)?$/.test(version) : version === undefined || /^3(\.\d+){0,2}$/.test(version);
    if (!ok) return wireError(406, 'not_acceptable', `Unsupported API version '${version ?? ''}'; expected ${expected}.`);
    return undefined;
  };

  const checkToken = (request: Request, api: Exclude<Api, 'oauth'>, path: string): { token: string } | Response => {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer +(\S+)$/i.exec(header.trim());
    const unauthorized = (message: string) => {
      const answer = wireError(401, 'unauthorized', message);
      answer.headers.set('WWW-Authenticate', `Bearer realm="${vendor}"`);
      return answer;
    };
    if (!match) return unauthorized('Missing bearer token.');
    const token = match[1] as string;
    const accepted = api === 'catalog' ? [...tokens.catalog, ...tokens.account] : tokens[api];
    // A logged-out user token is revoked everywhere, catalog reads and review writes included.
    if (tokens.account.includes(token) && account.loggedOut()) return unauthorized('The access token was revoked by logout.');
    if (accepted.includes(token)) return { token };
    const issued = api === 'catalog' || api === 'account' ? oauth.verdict(token) : undefined;
    if (issued?.ok === false) return unauthorized('The access token expired.');
    if (issued?.ok && (api === 'catalog' || (issued.user && allows(issued.scopes, permissionOf(path))))) return { token };
    if (api === 'account' && (issued?.ok || tokens.catalog.includes(token))) {
      return wireError(403, 'forbidden', `The access token lacks the ${permissionOf(path)} permission.`);
    }
    return unauthorized('Invalid bearer token.');
  };

  /** Protocol checks, rate limit, then the route's handler. */
  const answer = async (request: Request, url: URL, path: string, route: Route, params: Record<string, string>) => {
    // The OAuth endpoints are on the web host: no Accept version, no bearer token.
    if (route.api === 'oauth') return route.handler({ request, url, params, token: '' });
    const refused = checkAccept(request, route.api);
    if (refused) return refused;
    const auth = checkToken(request, route.api, path);
    if (auth instanceof Response) return auth;
    const merchant = route.api === 'orders' || route.api === 'products' || route.api === 'cps';
    const limiter = merchant ? merchantLimiter : catalogLimiter;
    const budget: RateLimitState | undefined = limiter?.take(`${route.api === 'catalog' || route.api === 'account' ? 'v3' : route.api}:${auth.token}`);
    let response: Response;
    if (budget && !budget.allowed) {
      response = json(403, { message: 'Rate limit exceeded. Please wait for the reset time given in X-RateLimit-Reset.' });
    } else {
      try {
        response = await route.handler({ request, url, params, token: auth.token });
      } catch (error) {
        if (!(error instanceof WireFailure)) throw error;
        response = error.toResponse();
      }
      if (!merchant && request.method === 'GET' && response.status === 200) {
        response = await withEtag(request, response);
      }
    }
    if (budget) setRateLimitHeaders(response.headers, budget);
    // Every recorded merchant answer carries it: orders change, so nothing may serve them from a cache.
    if (merchant && !response.headers.has('cache-control')) response.headers.set('Cache-Control', 'no-cache');
    return response;
  };

  const log = (request: Request, path: string, status: RequestLogEntry['status'], fault?: InjectedFault['kind']) => {
    if (requests.length >= REQUEST_LOG_LIMIT) requests.shift();
    requests.push(fault ? { method: request.method, path, status, fault } : { method: request.method, path, status });
  };

  const handle = async (request: Request): Promise<HandleResult> => {
    const url = new URL(request.url);
    const path = basePath && url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
    const file = request.method === 'GET' ? orders.serveFile(path) : undefined;
    if (file) return file;
    const admin = await handleAdmin(mock, request, path, baseHost);
    if (admin) return admin;

    const requestId = `req-${(++requestCounter).toString(16).padStart(8, '0')}`;
    const finish = (response: Response, fault?: InjectedFault['kind']) => {
      response.headers.set('X-Request-Id', requestId);
      log(request, path, response.status, fault);
      return response;
    };
    const match = router.match(request.method, path);
    if (match.kind === 'not_found') return finish(wireError(404, 'not_found', `No route for ${request.method} ${path}`));
    if (match.kind === 'method_not_allowed') {
      const refused = wireError(405, 'method_not_allowed', `${request.method} is not allowed on ${path}`);
      refused.headers.set('Allow', match.allowed.join(', '));
      return finish(refused);
    }

    const fault = faults.draw(request, path);
    const injected = (): HandleResult => {
      if (fault?.kind === 'drop') {
        log(request, path, 'dropped', 'drop');
        return DROPPED;
      }
      const status = fault?.status ?? 500;
      return finish(wireError(status, 'internal_error', `Injected fault: HTTP ${status}`), '5xx');
    };
    if (fault?.phase === 'before') {
      if (fault.kind !== 'timeout') return injected();
      await sleep(faults.delayMs, request.signal);
    }
    let response: Response;
    try {
      response = await answer(request, url, path, match.route, match.params);
    } catch (error) {
      if (request.signal.aborted) throw error;
      response = wireError(500, 'internal_error', `Mock error: ${(error as Error)?.message ?? String(error)}`);
    }
    if (fault?.phase === 'after') {
      if (fault.kind !== 'timeout') return injected();
      await sleep(faults.delayMs, request.signal);
    }
    return finish(response, fault?.kind);
  };

  /** A drop-in `fetch`: takes a Request or (input, init) like fetch; a dropped connection is fetch's TypeError. */
  const mockFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const result = await handle(request);
    if (result === DROPPED) throw new TypeError('fetch failed', { cause: new Error('mock: connection dropped') });
    return result;
  };

  let handlers: never[] | undefined;
  const mock = {
    vendor,
    baseUrl,
    /** The first accepted token of each API. */
    tokens: {
      orders: tokens.orders[0],
      products: tokens.products[0],
      catalog: tokens.catalog[0],
      account: tokens.account[0],
      cps: tokens.cps[0],
    } as { orders: string; products: string; catalog: string; account: string; cps: string },
    fetch: mockFetch,
    /**
     * msw request handlers for every request under `baseUrl`: `setupServer(...mock.handlers)`.
     * msw (an optional peer dependency) is loaded on first use, and the type names no msw type,
     * so `emporio/testing` needs msw only when this is read; `mswHandlers(mock)` from
     * `emporio/testing/msw` is the same list with msw's own type.
     */
    get handlers(): MswHandlerList {
      handlers ??= buildMswHandlers(loadMsw(), mock) as never[];
      return handlers;
    },
    /** The orders: `create` places one (sending `new_order`), the moves send `order_updated`; `setListing` serves or refuses the orders listing. */
    orders: { ...orders.kit, setListing: listing.setMode },
    /**
     * Returns (`DEMO-RETURN` always answers): `create(orderCode, { reason })` makes one awaiting
     * review and sends `merchant_return_created`; `setTracking`, `changeCourier`, `markReturned`,
     * `expire` move it on; `events` lists every returns webhook event sent.
     */
    returns: { ...returns.kit, events: returnEvents as readonly MockReturnEvent[] },
    products: products.kit,
    inventory: products.inventory,
    /** The FBS warehouse: stock, purchase orders (`receive` adds them to the stock), suppliers. */
    fbs: fbs.kit,
    /** CPS orders: `create` adds one that can be rejected. */
    cps: cps.kit,
    /** The OAuth application (`clientId`, `clientSecret`) and consent control. */
    oauth: oauth.kit,
    /** The seeded catalog: ids of notable records, and adding SKUs or categories. */
    catalog: catalog.kit,
    /** The account token's user: favorites, lists, notifications. */
    account: account.kit,
    events: events as readonly MockWebhookEvent[],
    /** Calls `listener` for every emitted event, synchronously; returns the unsubscribe function. */
    onEvent(listener: (event: MockWebhookEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    webhooks: {
      register: sender.register,
      unregister: sender.unregister,
      get urls() {
        return sender.urls;
      },
      deliveries: sender.deliveries as readonly WebhookDelivery[],
      /** Calls `listener` after every delivery attempt (retries too): the CLI's log line. Returns the unsubscribe function. */
      onDelivery: sender.onDelivery,
      /**
       * Resolves when every delivery, retries included, has finished. A delivery your receiver
       * refuses is retried `webhookMaxAttempts` times, `webhookIntervalMs` apart (5 minutes by
       * default, like the service): in tests set `webhookIntervalMs` to a few ms.
       */
      idle: sender.idle,
    },
    /**
     * The returns webhook, registered apart from the order webhook. Updates of a return go only
     * to the URLs its created event went to: a URL registered later gets none for it.
     */
    returnWebhooks: {
      register: returnsSender.register,
      unregister: returnsSender.unregister,
      get urls() {
        return returnsSender.urls;
      },
      deliveries: returnsSender.deliveries,
      /** Calls `listener` after every delivery attempt (retries too). Returns the unsubscribe function. */
      onDelivery: returnsSender.onDelivery,
      idle: returnsSender.idle,
    },
    clock,
    /** Replaces the fault options at run time (undefined turns faults off); the PRNG restarts from the seed. */
    setFaults(next: FaultOptions | undefined): void {
      faults.set(next);
    },
    /** Every fault injected so far, in order. */
    faults: { log: faults.log },
    /** The latest requests (up to 10,000) with their status: for asserting what reached the mock. */
    requests: requests as readonly RequestLogEntry[],
    /** Requests refused with 403 by the rate limits so far. */
    get rateLimitRefusals(): number {
      return (catalogLimiter?.refused ?? 0) + (merchantLimiter?.refused ?? 0);
    },
    /** Stops the webhook sender (pending retries are dropped). */
    close(): void {
      sender.stop();
      returnsSender.stop();
    },
  };
  return { mock, handle };
}

/** msw, required on demand from this module's own place (the CommonJS build has no import.meta.url). */
function loadMsw(): MswModule {
  const load = createRequire(import.meta.url || __filename);
  try {
    return load('msw') as MswModule;
  } catch (cause) {
    // msw's CommonJS build requires an ES module, which Node 20 before 20.19 cannot.
    if ((cause as { code?: unknown })?.code === 'ERR_REQUIRE_ESM') {
      throw new Error("mock.handlers needs Node 20.19 or later to load msw; on this Node, use mswHandlers(mock) from 'emporio/testing/msw' in an ES module", { cause });
    }
    throw new Error('mock.handlers needs msw (an optional peer dependency): npm install --save-dev msw', { cause });
  }
}

/** @internal */
export type MockCore = ReturnType<typeof createMockCore>['mock'];

/** The mock marketplace: its `fetch` and msw `handlers`, and the kit that drives it (`orders`, `webhooks`, `clock`, ...). */
export interface MockMarketplace extends MockCore {}

/** Whether a user token's scopes cover what an account path needs. */
function allows(scopes: Set<string>, permission: string): boolean {
  return permission === 'favorites' || permission === 'notifications' ? scopes.has(permission) : true;
}

function toList(value: TokenList): string[] {
  return typeof value === 'string' ? [value] : [...value];
}

/** ETag (weak, hash of the body) and If-None-Match → 304, as the Catalog API documentation's conditional requests. */
async function withEtag(request: Request, response: Response): Promise<Response> {
  const body = await response.text();
  const etag = `W/"${createHash('sha1').update(body).digest('hex')}"`;
  const headers = new Headers(response.headers);
  headers.set('ETag', etag);
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const candidates = (request.headers.get('if-none-match') ?? '').split(',').map(opaque);
  if (candidates.includes(opaque(etag)) || candidates.includes('*')) {
    headers.delete('Content-Type');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: response.status, headers });
}
