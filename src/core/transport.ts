import ky, { type KyInstance, type Options as KyOptions, TimeoutError as KyTimeoutError } from 'ky';
import type * as z from 'zod/mini';
import { conforms, type Drift, driftIssue, inspect, reportOnce } from '../schemas/drift.js';
import { type VendorSpelling, vendorSpelling } from '../schemas/vendor.js';
import { type Answered, type APIPromise, apiPromise } from './api-promise.js';
import {
  Answer,
  type AnswerContext,
  BODY_TIMEOUT,
  BODY_TOO_LARGE,
  bodyOf,
  isDecodingFailure,
  parseJson,
  type RawAnswer,
  readBody,
  requestIdOf,
  shownUrl,
} from './answer.js';
import { apiErrorOf, isErrorBody } from './answer-errors.js';
import { type CachedAnswer, type CacheStore, isCachedAnswer, knownTokenIdentity, MemoryCache, tokenIdentity } from './cache.js';
import {
  ConnectionError,
  RateLimitError,
  type RequestTarget,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import { parseLinkHeader } from './link.js';
import { type Logger, redactUrl, safeLogger, scrub, scrubHeaders, silentLogger, thrownText } from './logger.js';
import { type ApiName, BIND_CLIENT, type RefreshableTokenSource, type ResolvedOptions, type TokenSource } from './options.js';
import { type PageData, PagePromise } from './pagination.js';
import { RateLimiter } from './rate-limit.js';
import { isRedirect, PermanentRedirects, redirectTarget, resolveLinks } from './redirects.js';
import {
  buildUrl,
  checkCallOptions,
  isSameOrigin,
  keepOnlyOwnHeaders,
  type ListOptions,
  NO_OPTIONS,
  type RequestOptions,
  type RequestSpec,
  requestContent,
} from './request.js';
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
  readonly #ky: KyInstance;
  readonly #cache: CacheStore | undefined;
  readonly #logger: Logger;
  readonly #tokens: Partial<Record<ApiName, TokenSource>>;
  /** 301/308 targets, remembered for the client's lifetime. */
  readonly #permanentRedirects = new PermanentRedirects();
  /** Where tokens may go: the configured bases' origins. */
  readonly #baseOrigin: string;
  readonly #legacyOrigin: string;
  /** Debug lines are built only when someone reads them. */
  readonly #debug: boolean;
  /** Hooks that threw once already (each is reported once). */
  readonly #failedHooks = new Set<string>();
  /** The vendor's names for the documentation's `marketplace` ones; undefined when the vendor is `marketplace`. */
  readonly vendorSpelling: VendorSpelling | undefined;
  /** Schema paths whose drift was reported: once per path for the client's lifetime. */
  readonly #driftSeen = new Set<string>();
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
    this.#debug = options.logger !== undefined;
    this.#baseOrigin = new URL(options.baseUrl).origin;
    this.#legacyOrigin = options.legacyBaseUrl === undefined ? '' : new URL(options.legacyBaseUrl).origin;
    this.#tokens = {};
    for (const [api, source] of Object.entries(options.tokens)) this.setToken(api as ApiName, source);
    this.#cache = options.cache === false ? undefined : (options.cache ?? new MemoryCache());
    this.rateLimiter = new RateLimiter(options.rateLimit, this.#logger, options.rateLimitStore);
    // ky sends and times each attempt out; retries, redirects and errors are handled here, once.
    this.#ky = ky.create({
      retry: 0,
      throwHttpErrors: false,
      redirect: 'manual',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
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

  /**
   * A paginated list whose items sit under the answer's root key `itemsKey`; the page's
   * `meta` is the answer's `meta` (absent or null both as undefined). `eachItem` sees every item
   * as it arrives (the vendor's spelling of orders is adopted there).
   */
  list<Body extends object, K extends keyof Body>(
    spec: RequestSpec<Body>,
    itemsKey: K,
    eachItem?: (item: ItemOf<Body[K]>) => void,
  ): PagePromise<ItemOf<Body[K]>, MetaOf<Body>> {
    type Item = ItemOf<Body[K]>;
    type Meta = MetaOf<Body>;
    const fetchPage = async (url: string | undefined): Promise<PageData<Item, Meta>> => {
      const answer = await this.send(url === undefined ? spec : { ...spec, path: url, query: undefined, querySchema: undefined });
      if (answer.body === undefined) {
        const { status, url, requestId } = answer.response();
        throw new ResponseValidationError('a list answer was empty', { status, target: { method: spec.method, url }, requestId });
      }
      const body = answer.body as Body & { meta?: Meta | null | undefined };
      const items = body[itemsKey] as Item[];
      if (eachItem && Array.isArray(items)) items.forEach(eachItem);
      return {
        items,
        meta: body.meta ?? undefined,
        body,
        url: answer.url,
        links: resolveLinks(parseLinkHeader(answer.link), answer.url),
        answer,
      };
    };
    return new PagePromise(fetchPage, { prefetch: (spec.options as ListOptions | undefined)?.prefetch });
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

    const cacheKey = this.#cache && spec.method === 'GET' ? `emporio:${spec.api}:${tokenId}:${accept}:${url}` : undefined;
    const pendingCache = cacheKey ? this.#cacheGet(cacheKey) : undefined;
    const cached = isThenable(pendingCache) ? await within(pendingCache, timeout, () => this.#cacheFailed('read', 'timed out'), options.signal) : pendingCache;
    // The cached body answers a 304 only when the ETag sent was the cached one (not the caller's own).
    const revalidating = cached !== undefined && headers['if-none-match'] === undefined;
    if (revalidating) headers['if-none-match'] = cached.etag;

    const raw = await this.#followRedirects(spec, requestUrl, target, headers, body, token, tokenId, attempt);

    if (raw.status === 304 && revalidating) {
      this.#logger.debug('cache hit (304 Not Modified)', { url: target.url });
      return { ...raw, status: 200, text: cached.body, cachedLink: cached.link ?? null };
    }
    if (raw.status >= 200 && raw.status < 300) {
      const etag = cacheKey ? raw.headers.get('etag') : null;
      if (cacheKey && etag && raw.text) {
        const entry: CachedAnswer = { etag, body: raw.text };
        const link = raw.headers.get('link');
        if (link) entry.link = link;
        await within(this.#cacheSet(cacheKey, entry), timeout, () => this.#cacheFailed('write', 'timed out'), options.signal);
      }
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
        raw = await this.#fetchOnce(method, url, headers, body, spec.options, target, token, attempt);
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

  async #fetchOnce(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: BodyInit | undefined,
    options: RequestOptions | undefined,
    target: RequestTarget,
    token: string | undefined,
    attempt: number,
  ): Promise<RawAnswer> {
    const timeout = options?.timeout ?? this.#options.timeout;
    const callerSignal = options?.signal;
    const hooks = this.#options.hooks;
    const started = hooks.onResponse ? Date.now() : 0;
    // The URL as hooks and logs show it: made once, and only when one of them is there to see it.
    const shown = this.#debug || hooks.onRequest || hooks.onResponse ? shownUrl(url, token) : '';
    if (this.#debug) this.#logger.debug(`request ${method} ${shown}`);
    if (hooks.onRequest) {
      const event = { method, url: shown, headers: scrubHeaders(Object.entries(headers), token), attempt };
      this.#callHook('onRequest', () => hooks.onRequest?.(event), token);
    }
    let response: Response | undefined;
    try {
      // ky's own time-out (per attempt), and the caller's signal only when there is one:
      // any signal makes ky combine signals on every request, which costs.
      const init: KyOptions = { method, headers, timeout };
      // ky merges every option it is given on every request: only those with a value.
      if (body !== undefined) init.body = body;
      if (callerSignal) init.signal = callerSignal;
      const deadline = Date.now() + timeout;
      response = await this.#ky(url, init);
      // ky's time-out ends with the headers; the body gets what is left of the attempt's time.
      const text = await readBody(response, this.#options.maxResponseBytes, deadline, callerSignal);
      if (hooks.onResponse) {
        const answered = response;
        const event = {
          method,
          url: shown,
          status: answered.status,
          headers: scrubHeaders(answered.headers, token),
          durationMs: Date.now() - started,
        };
        this.#callHook('onResponse', () => hooks.onResponse?.(event), token);
      }
      return { status: response.status, headers: response.headers, text, url, token };
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (error instanceof KyTimeoutError) throw new TimeoutError(`no answer within ${timeout} ms`, target);
      if (error === BODY_TIMEOUT) throw new TimeoutError(`the answer's body did not arrive within ${timeout} ms`, target);
      if (response !== undefined) {
        const requestId = requestIdOf(response.headers, token);
        if (error === BODY_TOO_LARGE) throw new ResponseTooLargeError(this.#options.maxResponseBytes, target, requestId);
        const encoding = response.headers.get('content-encoding');
        // A body that arrived but cannot be decoded would arrive the same way again: not retried.
        if (encoding && isDecodingFailure(error)) {
          throw new ResponseValidationError(`the answer's body could not be decoded (content-encoding: ${scrub(encoding, token)})`, {
            status: response.status,
            target,
            requestId,
          });
        }
      }
      const reason = error instanceof Error ? scrub(error.message, token) : 'network error';
      const cause = error instanceof Error && error.cause instanceof Error ? scrub(error.cause.message, token) : '';
      throw new ConnectionError(`connection failed: ${reason}${cause ? ` (${cause})` : ''}`, target);
    }
  }

  /** A hook that throws never changes the call's outcome: it is reported once per hook, then ignored. */
  #callHook(name: 'onRequest' | 'onResponse' | 'onDrift', call: () => unknown, token: string | undefined): void {
    const report = (error: unknown) => {
      if (this.#failedHooks.has(name)) return;
      this.#failedHooks.add(name);
      const text = thrownText(error);
      this.#logger.warn?.(`hooks.${name} threw; the call goes on (later failures of this hook are not logged)`, {
        error: scrub(text, token),
      });
    };
    try {
      const result = call();
      if (isThenable(result)) Promise.resolve(result).catch(report);
    } catch (error) {
      report(error);
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
    if (conforms(schema, data)) return data as T;
    const deviation = inspect(schema, data, prefix);
    if (deviation === undefined) return data as T;
    const { fatal, drift } = deviation;
    if (fatal.length > 0 || (this.#options.strict && drift.length > 0)) {
      throw new ResponseValidationError('the answer does not match its expected shape', {
        issues: fatal.length > 0 ? fatal : drift.map(driftIssue),
        status: answer.status,
        target: answer.target,
        requestId: requestIdOf(answer.headers, answer.token),
      });
    }
    reportOnce(drift, this.#driftSeen, (found) => this.#reportDrift(answer, found), answer.api);
    return data as T;
  }

  /** Drift a schema cannot see (a value outside a set the SDK acts on), reported as `accept` reports its own: once per path. */
  reportDrift(answer: Pick<AnswerContext, 'api' | 'target'>, drift: readonly Drift[]): void {
    reportOnce(drift, this.#driftSeen, (found) => this.#reportDrift(answer, found), answer.api);
  }

  #reportDrift({ api, target }: Pick<AnswerContext, 'api' | 'target'>, drift: Drift): void {
    const { path, expected, received } = drift;
    const onDrift = this.#options.hooks.onDrift;
    if (onDrift) {
      const report = { api, method: target.method, url: target.url, path, expected, received };
      this.#callHook('onDrift', () => onDrift(report), undefined);
    } else this.#logger.warn?.(`the answer drifted from its documented shape at ${path}: expected ${expected}, received ${received}`, { ...target });
  }

  /** A store that fails or hangs costs the cache, never the request. */
  #cacheFailed(what: 'read' | 'write', error: unknown): undefined {
    this.#logger.warn?.(`cache ${what} failed`, { error: String(error) });
    return undefined;
  }

  /** A cached answer; synchronous for synchronous stores (the default), so a miss costs no await. */
  #cacheGet(key: string): CachedAnswer | undefined | Promise<CachedAnswer | undefined> {
    let value: unknown;
    try {
      value = (this.#cache as CacheStore).get(key);
    } catch (error) {
      return this.#cacheFailed('read', error);
    }
    if (isThenable(value)) {
      return Promise.resolve(value).then(
        (v) => (isCachedAnswer(v) ? v : undefined),
        (error: unknown) => this.#cacheFailed('read', error),
      );
    }
    return isCachedAnswer(value) ? value : undefined;
  }

  async #cacheSet(key: string, value: CachedAnswer): Promise<void> {
    try {
      await (this.#cache as CacheStore).set(key, value);
    } catch (error) {
      this.#cacheFailed('write', error);
    }
  }
}

/** The item type of a list answer's root array. */
type ItemOf<T> = T extends readonly (infer Item)[] ? Item : never;
/** The type of a list answer's `meta`, without null. */
type MetaOf<Body> = Body extends { meta?: infer Meta | undefined } ? Exclude<Meta, null | undefined> : undefined;

/** The data of a call that resolves to nothing (an action answered 204 or `{ success: true }`). */
export const noData = (): undefined => undefined;
