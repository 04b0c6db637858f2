import { type CacheStore, isCacheStore } from './cache.js';
import type { Logger } from './logger.js';
import type { RateLimitBudget, RateLimitStore } from './rate-limit.js';
import { VERSION } from '../version.js';
import type { DriftReport } from '../schemas/drift.js';
import { isHeaderValue, withoutBearerPrefix } from './text.js';
import type { ApiName } from './api-name.js';
import type { OpenTelemetryMeter, OpenTelemetryTracer } from './otel-types.js';

export type { ApiName } from './api-name.js';

/** A bearer token, or a function that returns one (awaited per request, so OAuth tokens can refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/** Which API a call belongs to, and so which token it sends (FBS calls use the orders token). */
/** @internal */
export const BIND_CLIENT: unique symbol = Symbol('emporio.bindClient');

/**
 * A token source that can renew its token (the OAuth sources of `clientCredentials` and
 * `userToken`): after a 401 the client calls `refresh` once and repeats the refused call once.
 */
export interface RefreshableTokenSource {
  (): Promise<string>;
  /**
   * Fetches a new token now (concurrent callers share one request). Given the token the
   * service refused, it returns the token it already holds instead when that is another one.
   */
  refresh(refused?: string): Promise<string>;
  /**
   * @internal The client's baseUrl (a source without `tokenUrl` derives it), the API the source
   * serves (named in its errors) and the client's `maxResponseBytes` (which bounds the token answer too).
   */
  [BIND_CLIENT]?: ((baseUrl: string, api: ApiName, maxResponseBytes: number) => void) | undefined;
}


/** Observes each HTTP exchange. Headers arrive with credentials redacted. */
export interface Hooks {
  /** `attempt`: 0 for the first try, 1 for the first retry, ...; every redirect hop of a try reports the same number. */
  onRequest?: ((event: { method: string; url: string; headers: Record<string, string>; attempt: number }) => void) | undefined;
  onResponse?: ((event: {
    method: string;
    url: string;
    status: number;
    headers: Record<string, string>;
    durationMs: number;
  }) => void) | undefined;
  /**
   * A member of an answer is not of its documented type (the call still resolves, with the
   * answer as sent). Called once per schema path per client; the report names the path and
   * the types, never the value. Without it, drift goes to `logger.warn`, also once per path.
   */
  onDrift?: ((report: DriftReport) => void) | undefined;
}

export interface ClientOptions {
  /**
   * Required. https, or http for loopback hosts (or any host with `allowHttp`). Typed to take an
   * environment variable as read (`process.env.BASE_URL`): unset, it is a `TypeError` when the client is made.
   */
  baseUrl: string | undefined;
  /** Required. The vendor in `Accept: application/vnd.<vendor>+json`; unset (undefined) is a `TypeError` when the client is made. */
  vendor: string | undefined;
  /**
   * Default bearer token for every namespace. A string given with its `Bearer ` prefix (as copied
   * from a curl command or an `Authorization` header) is taken without it: the client adds the prefix.
   */
  token?: TokenSource | undefined;
  /** Per-namespace token overrides; an undefined entry (an unset environment variable) is skipped. */
  tokens?: Partial<Record<ApiName, TokenSource | undefined>> | undefined;
  /** Version for catalog and account (`major.minor`, default '3.2'); orders and products always send 3.0. */
  apiVersion?: string | undefined;
  /** Base URL of the deprecated legacy v2 interface. */
  legacyBaseUrl?: string | undefined;
  /** Milliseconds per attempt. Default 30,000. */
  timeout?: number | undefined;
  /** Retries of transient failures, for requests that are safe to repeat. Default 2. */
  maxRetries?: number | undefined;
  /** Custom fetch implementation. */
  fetch?: typeof fetch | undefined;
  /** ETag cache store (default: in-memory, bounded); false disables. */
  cache?: CacheStore | false | undefined;
  /** Catalog/account budget; false disables the budget (the service's own figures are still honoured). */
  rateLimit?: RateLimitBudget | false | undefined;
  /**
   * Where the rate-limit windows and the daily budget are kept: this process's memory by default,
   * or a store shared by several processes (`redisStores(redis).rateLimitStore` from `emporio/redis`).
   */
  rateLimitStore?: RateLimitStore | undefined;
  /** Debug sink; tokens are always redacted. */
  logger?: Logger | undefined;
  /** Observers of each HTTP exchange, and of answers that drifted from their documented shape. */
  hooks?: Hooks | undefined;
  /** The most an answer's body may take once decoded, in bytes (default 32 MiB); past it, `ResponseTooLargeError`. */
  maxResponseBytes?: number | undefined;
  /** Plain `http:` bases on any host, such as a mock at `http://mock:4010` in a container network. Default false. */
  allowHttp?: boolean | undefined;
  /** Your application, such as `'myapp/1.2'`: sent after the SDK's own `User-Agent` (`emporio/<version> myapp/1.2`). */
  userAgent?: string | undefined;
  /**
   * Refuse drift: an answer with a member of another type than documented rejects with
   * `ResponseValidationError` instead of resolving as sent. Default false.
   */
  strict?: boolean | undefined;
  /**
   * Your OpenTelemetry tracer (`trace.getTracer('my-shop')` of `@opentelemetry/api`): one client
   * span per request the client sends, named as the method that sends it (`orders.get`). The
   * tracing code is loaded on the first call. See the tracing guide (docs/tracing.md).
   */
  tracer?: OpenTelemetryTracer | undefined;
  /** Your OpenTelemetry meter (`metrics.getMeter('my-shop')`): call durations, 429 and 5xx answers, retries, rate-limit waits and the rate-limit room left. */
  meter?: OpenTelemetryMeter | undefined;
  /** Send the client span's W3C `traceparent` header to the service (with `tracer`). Default false. */
  propagateTraceContext?: boolean | undefined;
}

/** @internal */
export interface ResolvedOptions {
  baseUrl: string;
  vendor: string;
  tokens: Partial<Record<ApiName, TokenSource>>;
  apiVersion: string;
  legacyBaseUrl: string | undefined;
  timeout: number;
  maxRetries: number;
  fetch: typeof fetch | undefined;
  cache: CacheStore | false | undefined;
  rateLimit: RateLimitBudget | false | undefined;
  rateLimitStore: RateLimitStore | undefined;
  logger: Logger | undefined;
  hooks: Hooks;
  maxResponseBytes: number;
  /** The whole User-Agent header: the SDK's, then the caller's `userAgent`. */
  userAgent: string;
  strict: boolean;
  tracer: OpenTelemetryTracer | undefined;
  meter: OpenTelemetryMeter | undefined;
  propagateTraceContext: boolean;
}

const KNOWN_OPTIONS = new Set<string>([
  'baseUrl', 'vendor', 'token', 'tokens', 'apiVersion', 'legacyBaseUrl', 'timeout', 'maxRetries',
  'fetch', 'cache', 'rateLimit', 'rateLimitStore', 'logger', 'hooks', 'maxResponseBytes', 'allowHttp', 'userAgent', 'strict',
  'tracer', 'meter', 'propagateTraceContext',
]);
const API_NAMES = new Set<string>(['orders', 'products', 'catalog', 'account', 'cps', 'legacyV2']);

const fail = (option: string, problem: string): never => {
  throw new TypeError(`MarketplaceClient: option \`${option}\` ${problem}`);
};

export function resolveOptions(options: ClientOptions): ResolvedOptions {
  // The first call a newcomer types: point at the constructor that reads the environment.
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object, or use MarketplaceClient.fromEnv()');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) fail(key, 'is not a known option');
  }

  const tokens: Partial<Record<ApiName, TokenSource>> = {};
  if (options.tokens !== undefined) {
    if (typeof options.tokens !== 'object' || options.tokens === null) fail('tokens', 'must be an object');
    for (const [api, source] of Object.entries(options.tokens)) {
      if (!API_NAMES.has(api)) fail(`tokens.${api}`, `is not a namespace (expected one of ${[...API_NAMES].join(', ')})`);
      if (source !== undefined) tokens[api as ApiName] = checkToken(`tokens.${api}`, source);
    }
  }
  if (options.token !== undefined) {
    const source = checkToken('token', options.token);
    for (const api of API_NAMES) if (api !== 'legacyV2') tokens[api as ApiName] ??= source;
  } else if (Object.keys(tokens).length === 0) {
    fail('token', 'is required (or give every namespace you use its own entry in `tokens`)');
  }

  const allowHttp = options.allowHttp ?? false;
  if (typeof allowHttp !== 'boolean') fail('allowHttp', 'must be a boolean');
  return {
    baseUrl: checkBaseUrl('baseUrl', options.baseUrl, allowHttp),
    vendor: checkVendor(options.vendor),
    tokens,
    apiVersion: checkApiVersion(options.apiVersion),
    legacyBaseUrl:
      options.legacyBaseUrl === undefined ? undefined : checkBaseUrl('legacyBaseUrl', options.legacyBaseUrl, allowHttp),
    timeout: checkNumber('timeout', options.timeout ?? 30_000, { min: 1, max: MAX_TIMEOUT_MS }),
    maxRetries: checkNumber('maxRetries', options.maxRetries ?? 2, { min: 0, integer: true, max: 10 }),
    fetch: options.fetch === undefined ? undefined : checkFunction('fetch', options.fetch),
    cache: checkCache(options.cache),
    rateLimit: checkRateLimit(options.rateLimit),
    rateLimitStore: checkHas('rateLimitStore', options.rateLimitStore, 'step', 'a store with a step method (redisStores(redis).rateLimitStore)'),
    logger: checkHas('logger', options.logger, 'debug', 'an object with at least a debug(message) method'),
    hooks: checkHooks(options.hooks),
    maxResponseBytes: checkNumber('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, {
      min: 1,
      integer: true,
    }),
    userAgent: options.userAgent === undefined ? SDK_USER_AGENT : `${SDK_USER_AGENT} ${checkUserAgent(options.userAgent)}`,
    strict: checkBoolean('strict', options.strict ?? false),
    tracer: checkHas('tracer', options.tracer, 'startActiveSpan', 'an OpenTelemetry Tracer'),
    meter: checkHas('meter', options.meter, 'createHistogram', 'an OpenTelemetry Meter'),
    propagateTraceContext: checkBoolean('propagateTraceContext', options.propagateTraceContext ?? false),
  };
}

/** The SDK's own product token, first in every request's User-Agent. */
const SDK_USER_AGENT = `emporio/${VERSION}`;

function checkUserAgent(value: unknown): string {
  // A header value: visible ASCII and inner spaces only (no line breaks, no control characters).
  if (typeof value !== 'string' || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    return fail('userAgent', 'must be a non-empty string of printable ASCII, such as "myapp/1.2"');
  }
  return value;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** `allowHttp`: plain http on any host; without it, only on loopback. */
export function checkBaseUrl(option: string, value: unknown, allowHttp = false): string {
  if (typeof value !== 'string' || value.length === 0) return fail(option, 'is required and must be a URL string');
  // The URL parser drops tabs and line breaks without a word: a value spread over two lines (an
  // environment file's quoting gone wrong) would be joined into another URL.
  if (/[\t\r\n]/.test(value)) return fail(option, 'must not contain a line break or tab');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(option, `is not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
    fail(option, 'must use https (http only for loopback hosts, or with `allowHttp: true`)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(option, 'must be an https URL');
  if (url.search || url.hash) fail(option, 'must not contain a query or fragment');
  if (url.username || url.password) fail(option, 'must not contain credentials');
  return url.href.replace(/\/+$/, '');
}

function checkVendor(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(value)) {
    return fail('vendor', 'is required: the Accept vendor name (letters, digits, dots, hyphens)');
  }
  return value;
}

function checkToken(option: string, value: unknown): TokenSource {
  if (typeof value === 'function') return value as TokenSource;
  if (typeof value === 'string') value = withoutBearerPrefix(value);
  if (typeof value !== 'string' || value.trim().length === 0) {
    return fail(option, 'must be a non-empty string or a function returning one');
  }
  // Sent in a header: a value fetch refuses would fail every request, with the token in fetch's message.
  if (!isHeaderValue(value)) fail(option, 'must not contain control characters or characters outside Latin-1');
  return value;
}

function checkApiVersion(value: unknown): string {
  if (value === undefined) return '3.2';
  if (typeof value !== 'string' || !/^\d+\.\d+(\.\d+)?$/.test(value)) {
    return fail('apiVersion', `must be "major.minor" such as "3.2", got ${JSON.stringify(value)}`);
  }
  // The service ignores a patch, so it is not sent.
  return value.split('.').slice(0, 2).join('.');
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days); ky refuses more. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

function checkNumber(option: string, value: unknown, rule: { min: number; max?: number | undefined; integer?: boolean | undefined }): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < rule.min || (rule.max !== undefined && value > rule.max)) {
    return fail(option, `must be a number${rule.max === undefined ? ` >= ${rule.min}` : ` from ${rule.min} to ${rule.max}`}`);
  }
  if (rule.integer && !Number.isInteger(value)) fail(option, 'must be an integer');
  return value;
}

function checkFunction<T>(option: string, value: T): T {
  if (typeof value !== 'function') fail(option, 'must be a function');
  return value;
}

function checkCache(value: unknown): CacheStore | false | undefined {
  if (value === undefined || value === false) return value;
  if (!isCacheStore(value)) return fail('cache', 'must be false or a get/set/delete store (a Map, Keyv)');
  return value;
}

function checkRateLimit(value: unknown): RateLimitBudget | false | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null) return fail('rateLimit', 'must be false or { perMinute?, perDay? }');
  const budget = value as Record<string, unknown>;
  for (const key of Object.keys(budget)) {
    if (key !== 'perMinute' && key !== 'perDay') fail(`rateLimit.${key}`, 'is not a known option');
  }
  for (const key of ['perMinute', 'perDay'] as const) {
    if (budget[key] !== undefined) checkNumber(`rateLimit.${key}`, budget[key], { min: 1, integer: true });
  }
  return budget as RateLimitBudget;
}

/** Undefined, or an object with the function `method`. */
function checkHas<T>(option: string, value: T, method: string, what: string): T {
  if (value !== undefined && typeof (value as Record<string, unknown> | null)?.[method] !== 'function') fail(option, `must be ${what}`);
  return value;
}

const HOOK_NAMES = new Set(['onRequest', 'onResponse', 'onDrift']);

function checkBoolean(option: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(option, 'must be true or false');
  return value as boolean;
}

function checkHooks(value: unknown): Hooks {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) return fail('hooks', 'must be an object');
  for (const [key, hook] of Object.entries(value)) {
    if (!HOOK_NAMES.has(key)) fail(`hooks.${key}`, 'is not a known hook');
    if (hook !== undefined && typeof hook !== 'function') fail(`hooks.${key}`, 'must be a function');
  }
  return value as Hooks;
}
