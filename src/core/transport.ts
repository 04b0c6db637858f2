import type * as z from 'zod/mini';
import type { Drift } from '../schemas/drift.js';
import { type VendorSpelling, vendorSpelling } from '../schemas/vendor.js';
import { type Answered, type APIPromise, apiPromise } from './api-promise.js';
import { Answer, type AnswerContext, bodyOf, parseJson, type RawAnswer } from './answer.js';
import { AnswerCache } from './answer-cache.js';
import { AnswerChecker } from './answer-check.js';
import { apiErrorOf, isErrorBody } from './answer-errors.js';
import { knownTokenIdentity, MemoryCache, tokenIdentity } from './cache.js';
import { ConnectionError, RateLimitError, type RequestTarget, RequestValidationError, TimeoutError } from './errors.js';
import { Exchange } from './exchange.js';
import { HookCaller } from './hook-caller.js';
import { type ItemOf, listPages, type MetaOf } from './list.js';
import { type Logger, redactUrl, safeLogger, scrub, silentLogger, thrownText } from './logger.js';
import { type ApiName, BIND_CLIENT, type RefreshableTokenSource, type ResolvedOptions, type TokenSource } from './options.js';
import type { PagePromise } from './pagination.js';
import { RateLimiter } from './rate-limit.js';
import { isRedirect, PermanentRedirects, redirectTarget } from './redirects.js';
import { buildUrl, checkCallOptions, isSameOrigin, keepOnlyOwnHeaders, NO_OPTIONS, type RequestSpec, requestContent } from './request.js';
import { markRefused, renewedAfter401, retryAfterMs, retryAttempts } from './retry.js';
import { isThenable, within } from './time.js';
import { isHeaderValue } from './text.js';
import type { ClientTelemetry } from './client-telemetry.js';
import type { CallTelemetry, TracedTarget } from './telemetry.js';

export type { HttpMethod, ListOptions, RequestOptions, RequestSpec } from './request.js';

const BUDGETED_APIS = new Set<ApiName>(['catalog', 'account']);
/** What a hop to another origin tells the rate limiter: no figures. */
const NO_FIGURES = new Headers();

/**
 * The one request path: URL and headers, token, rate limits, ETag cache, redirects,
 * retries, error mapping and answer validation. Every namespace goes through it.
 * @internal
 */
export class Transport {
  readonly rateLimiter: RateLimiter;
  readonly #options: ResolvedOptions;
  readonly #exchange: Exchange;
  readonly #cache: AnswerCache | undefined;
  readonly #checker: AnswerChecker;
  readonly #logger: Logger;
  readonly #tokens: Partial<Record<ApiName, TokenSource>>;
  /** 301/308 targets, remembered for the client's lifetime. */
  readonly #permanentRedirects = new PermanentRedirects();
  /** Where tokens may go: the configured bases' origins. */
  readonly #baseOrigin: string;
  readonly #legacyOrigin: string;
  /** The vendor's names for the documentation's `marketplace` ones; undefined when the vendor is `marketplace`. */
  readonly vendorSpelling: VendorSpelling | undefined;
  /** The Accept values, built once: they go on every request and into every cache key. */
  readonly #acceptV3: string;
  readonly #acceptOther: string;
  /** Tracing and metrics, loaded on first use with the `tracer` or `meter` option (undefined when loading failed). */
  readonly #telemetry: Promise<ClientTelemetry | undefined> | undefined;

  constructor(options: ResolvedOptions) {
    this.#options = options;
    this.vendorSpelling = vendorSpelling(options.vendor);
    this.#acceptV3 = `application/vnd.${options.vendor}+json; version=3.0`;
    this.#acceptOther = `application/vnd.${options.vendor}+json; version=${options.apiVersion}`;
    this.#logger = options.logger === undefined ? silentLogger : safeLogger(options.logger);
    this.#baseOrigin = new URL(options.baseUrl).origin;
    this.#legacyOrigin = options.legacyBaseUrl === undefined ? '' : new URL(options.legacyBaseUrl).origin;
    this.#tokens = {};
    for (const [api, source] of Object.entries(options.tokens)) this.setToken(api as ApiName, source);
    this.#cache = options.cache === false ? undefined : new AnswerCache(options.cache ?? new MemoryCache(), this.#logger);
    this.rateLimiter = new RateLimiter(options.rateLimit, this.#logger, options.rateLimitStore);
    const hooks = new HookCaller(this.#logger);
    this.#exchange = new Exchange(options, hooks, options.logger !== undefined);
    this.#checker = new AnswerChecker(options.strict, options.hooks.onDrift, hooks);
    if (options.tracer || options.meter) {
      this.#telemetry = import('../otel/client.js').then(
        (loaded) => loaded.clientTelemetry(options),
        (error: unknown) => void this.warn(`tracing could not be loaded; calls go on untraced: ${thrownText(error)}`),
      );
    }
  }

  /**
   * A warning the caller must not miss (a run that sent nothing): the logger's `warn`, or
   * the console when the client has no logger.
   */
  warn(message: string): void {
    if (this.#options.logger === undefined) console.warn(`emporio: ${message}`);
    else this.#logger.warn?.(message);
  }

  setToken(api: ApiName, source: TokenSource | undefined): void {
    if (source === undefined) delete this.#tokens[api];
    else this.#tokens[api] = source;
    // An OAuth source without its own tokenUrl derives it from the client's base.
    if (typeof source === 'function') (source as RefreshableTokenSource)[BIND_CLIENT]?.(this.#options.baseUrl, api, this.#options.maxResponseBytes);
  }

  /** `text` without the API's token, when that token is a string (a function's value is never kept). */
  redact(api: ApiName, text: string): string {
    const token = this.#tokens[api];
    return typeof token === 'string' ? scrub(text, token) : text;
  }

  hasToken(api: ApiName): boolean {
    return this.#tokens[api] !== undefined;
  }

  /**
   * A call that resolves to its answer's body, or to `map(body)` (a method that hands back
   * part of the answer). `spec` may be a function, for methods that check their input
   * first: it runs inside the call, so a bad input rejects the promise, as for every call.
   */
  request<T, U = T>(spec: RequestSpec<T> | (() => RequestSpec<T>), map?: (body: T) => U): APIPromise<U> {
    const answer = typeof spec === 'function' ? this.#sendLater(spec) : this.send(spec);
    return apiPromise(answer, map === undefined ? (bodyOf as (answer: Answered) => U) : (value) => map((value as Answer<T>).body));
  }

  /**
   * A call built from other calls (a follow-up read, a multi-step upload): `run` resolves
   * to the data and the answer it came from, which `.withResponse()` shows.
   */
  call<U>(run: () => Promise<{ data: U; answer: Answered }>): APIPromise<U> {
    let result: Promise<{ data: U; answer: Answered }>;
    try {
      result = run();
    } catch (error) {
      // A bad input rejects the call, as in every other method.
      result = Promise.reject(error);
    }
    const produced = result.then(({ data, answer }) => ({ data, response: () => answer.response() }));
    return apiPromise<U>(produced, (value) => (value as unknown as { data: U }).data);
  }

  async #sendLater<T>(spec: () => RequestSpec<T>): Promise<Answer<T>> {
    return this.send(spec());
  }

  /** A paginated list whose items sit under the answer's root key `itemsKey` (see `listPages`). */
  list<Body extends object, K extends keyof Body>(
    spec: RequestSpec<Body>,
    itemsKey: K,
    eachItem?: (item: ItemOf<Body[K]>) => void,
  ): PagePromise<ItemOf<Body[K]>, MetaOf<Body>> {
    return listPages((page) => this.send(page), spec, itemsKey, eachItem);
  }

  send<T>(spec: RequestSpec<T>): Promise<Answer<T>> {
    const telemetry = this.#telemetry;
    return telemetry ? telemetry.then((traced) => (traced ? traced.call(spec, (call) => this.#send(spec, call)) : this.#send(spec))) : this.#send(spec);
  }

  async #send<T>(spec: RequestSpec<T>, telemetry?: CallTelemetry): Promise<Answer<T>> {
    const url = buildUrl(spec, this.#options.baseUrl, this.#options.legacyBaseUrl);
    const target: TracedTarget = { method: spec.method, url: redactUrl(url), telemetry };
    const options = spec.options ?? NO_OPTIONS;
    const signal = options.signal;
    const retryable = spec.idempotent ?? spec.method === 'GET';
    const maxRetries = checkCallOptions(options, this.#options.maxRetries);

    const retries = retryable ? maxRetries : 0;
    let raw: RawAnswer;
    try {
      try {
        // The first attempt runs outside the retry loop: most requests succeed at once.
        raw = await this.#attempt(spec, url, target);
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const timeout = options.timeout ?? this.#options.timeout;
        if (await renewedAfter401(this.#tokens[spec.api], target, error, timeout, signal)) raw = await this.#attempt(spec, url, target, 1);
        else if (retries === 0) throw error;
        else {
          const attempt = (attemptNumber: number) => this.#attempt(spec, url, target, attemptNumber);
          raw = await retryAttempts(attempt, error, retries, this.#logger, target, signal);
        }
      }
    } catch (error) {
      // An abort rejects with the caller's reason, unchanged, as fetch does.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }

    return new Answer(this.#parseBody(raw, spec, target), raw);
  }

  /** The request's token: a string at once, or a promise when the source is a function. */
  #token(spec: RequestSpec<unknown>): string | undefined | Promise<string> {
    if (spec.anonymous) return undefined;
    const source = this.#tokens[spec.api];
    if (source === undefined) {
      throw new RequestValidationError(
        spec.api === 'legacyV2'
          ? 'No legacy v2 token: call legacyV2.authenticate() first or pass tokens.legacyV2'
          : `No token for the ${spec.api} API: pass \`token\` or \`tokens.${spec.api}\``,
      );
    }
    if (typeof source === 'string') return source;
    return Promise.resolve(source()).then((token) => {
      if (typeof token !== 'string' || token.length === 0 || !isHeaderValue(token)) {
        throw new RequestValidationError(`The token function for the ${spec.api} API returned no usable token`);
      }
      return token;
    });
  }

  #apiOrigin(api: ApiName): string {
    return api === 'legacyV2' ? this.#legacyOrigin : this.#baseOrigin;
  }

  #accept(api: ApiName): string {
    if (api === 'legacyV2') return 'application/json';
    return api === 'orders' || api === 'products' || api === 'cps' ? this.#acceptV3 : this.#acceptOther;
  }

  /** One attempt: rate limits, cache, then the request and its redirects. */
  async #attempt(spec: RequestSpec<unknown>, url: string, target: RequestTarget, attempt = 0): Promise<RawAnswer> {
    const options = spec.options ?? NO_OPTIONS;
    const timeout = options.timeout ?? this.#options.timeout;
    // Awaits only where there is something to wait for: most requests need none of these.
    const pendingToken = this.#token(spec);
    const token =
      typeof pendingToken === 'object'
        ? await within(pendingToken, timeout, () => {
            throw new TimeoutError(`the token function gave no token within ${timeout} ms`, target);
          }, options.signal)
        : pendingToken;
    const tokenId = token === undefined ? 'anonymous' : (knownTokenIdentity(token) ?? (await tokenIdentity(token)));

    const accept = this.#accept(spec.api);
    const { headers, body } = requestContent(spec, options, accept, this.#options.userAgent);

    let requestUrl = url;
    if (token !== undefined && spec.api === 'legacyV2' && isSameOrigin(url, this.#legacyOrigin)) {
      const withToken = new URL(url);
      withToken.searchParams.set('access_token', token);
      requestUrl = withToken.href;
    }

    const cache = spec.method === 'GET' ? this.#cache : undefined;
    const cacheKey = cache ? `emporio:${spec.api}:${tokenId}:${accept}:${url}` : '';
    const pendingCache = cache?.read(cacheKey, timeout, options.signal);
    const cached = isThenable(pendingCache) ? await pendingCache : pendingCache;
    // The cached body answers a 304 only when the ETag sent was the cached one (not the caller's own).
    const revalidating = cached !== undefined && headers['if-none-match'] === undefined;
    if (revalidating) headers['if-none-match'] = cached.etag;

    const raw = await this.#followRedirects(spec, requestUrl, target, headers, body, token, tokenId, attempt);

    if (raw.status === 304 && revalidating) {
      this.#logger.debug('cache hit (304 Not Modified)', { url: target.url });
      return { ...raw, status: 200, text: cached.body, cachedLink: cached.link ?? null };
    }
    if (raw.status >= 200 && raw.status < 300) {
      const kept = cache?.keep(cacheKey, raw, timeout, options.signal);
      if (kept) await kept;
      return raw;
    }
    const error = apiErrorOf(spec, raw, target, token);
    if (error instanceof RateLimitError && isSameOrigin(raw.url, this.#apiOrigin(spec.api))) this.#holdUntilReset(tokenId, error, raw.headers);
    if (token !== undefined && error.status === 401) markRefused(error, token);
    throw error;
  }

  async #followRedirects(
    spec: RequestSpec<unknown>,
    startUrl: string,
    target: RequestTarget,
    headers: Record<string, string>,
    body: BodyInit | undefined,
    token: string | undefined,
    tokenId: string,
    attempt: number,
  ): Promise<RawAnswer> {
    // The configured base's origin, not the start URL's: a next-page link may point elsewhere.
    const apiOrigin = this.#apiOrigin(spec.api);
    let method: string = spec.method;
    let url = startUrl;
    let visited: Set<string> | undefined;

    for (let hop = 0; ; hop++) {
      // Every hop is a request of its own: it waits for a held window, counts against the budget,
      // and holds room in the window until its answer is in (hence release right after).
      // The wait for a shared store counts against the call's timeout; the wait for a window does not.
      const timeout = spec.options?.timeout ?? this.#options.timeout;
      const admitted = this.rateLimiter.acquire(tokenId, BUDGETED_APIS.has(spec.api), target, spec.options?.signal, timeout);
      const countedIn = typeof admitted === 'string' ? admitted : await admitted;
      url = this.#permanentRedirects.resolve(url);
      // The token goes only to the API's own origin, never to a redirect or link target elsewhere;
      // nor does any header the caller added (it may be a credential the SDK cannot recognise).
      const atApi = isSameOrigin(url, apiOrigin);
      if (!atApi) keepOnlyOwnHeaders(headers);
      else if (token !== undefined && spec.api !== 'legacyV2') headers.authorization = `Bearer ${token}`;
      else delete headers.authorization;

      let raw: RawAnswer;
      spec.onWire?.('sent');
      (target as TracedTarget).telemetry?.sending(headers, atApi);
      try {
        const { timeout = this.#options.timeout, signal } = spec.options ?? NO_OPTIONS;
        raw = await this.#exchange.send({ method, url, headers, body, timeout, signal, target, token, attempt });
        // Only the service's origin sets the token's rate-limit figures: another host's say nothing about it.
        this.rateLimiter.observe(tokenId, atApi ? raw.headers : NO_FIGURES, countedIn);
      } catch (error) {
        if (error instanceof ConnectionError || error instanceof TimeoutError) spec.onWire?.('unanswered');
        throw error;
      } finally {
        this.rateLimiter.release(tokenId, countedIn);
      }
      if (!isRedirect(raw.status)) return raw;

      visited ??= new Set([startUrl]);
      const next = redirectTarget(raw, url, visited, hop, target, token);
      if (raw.status === 301 || raw.status === 308) this.#permanentRedirects.remember(url, next);
      if (raw.status === 303 && method !== 'GET') {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      this.#logger.debug(`redirect ${raw.status} to ${scrub(redactUrl(next), token)}`, { url: target.url });
      url = next;
    }
  }

  /** Later requests of this token wait for the reset, or for Retry-After when that is all there is. */
  #holdUntilReset(tokenId: string, error: RateLimitError, headers: Headers): void {
    const retryAfter = retryAfterMs(headers.get('retry-after'));
    const until = error.reset ?? (retryAfter === undefined ? undefined : (Date.now() + retryAfter) / 1000);
    if (until !== undefined) this.rateLimiter.exhaust(tokenId, until);
  }

  #parseBody<T>(raw: RawAnswer, spec: RequestSpec<T>, target: RequestTarget): T {
    const data = parseJson(raw, target);
    // A 2xx whose body is the error form is the error it describes, not an answer of another shape.
    if (isErrorBody(data)) throw apiErrorOf(spec, raw, target, raw.token);
    if (!spec.schema) return data as T;
    return this.accept(spec.schema, data, { api: spec.api, status: raw.status, headers: raw.headers, target, token: raw.token });
  }

  /**
   * A doubtful answer (or part of one, at `prefix`): refused when the SDK cannot use it,
   * otherwise returned as sent, its drift reported once per path (or refused, when strict).
   */
  accept<T>(schema: z.ZodMiniType<T>, data: unknown, answer: AnswerContext, prefix?: readonly string[]): T {
    return this.#checker.accept(schema, data, answer, prefix);
  }

  /** Drift a schema cannot see (a value outside a set the SDK acts on), reported as `accept` reports its own: once per path. */
  reportDrift(answer: Pick<AnswerContext, 'api' | 'target'>, drift: readonly Drift[]): void {
    this.#checker.report(answer, drift);
  }
}

/** The data of a call that resolves to nothing (an action answered 204 or `{ success: true }`). */
export const noData = (): undefined => undefined;
