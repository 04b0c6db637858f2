import ky, { type KyInstance, type Options as KyOptions, TimeoutError as KyTimeoutError } from 'ky';
import pRetry from 'p-retry';
import type * as z from 'zod/mini';
import { toIssues } from '../schemas/common.js';
import { type CachedAnswer, type CacheStore, isCachedAnswer, knownTokenIdentity, MemoryCache, tokenIdentity } from './cache.js';
import {
  type ApiError,
  apiErrorClass,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  RateLimitBudgetError,
  RateLimitError,
  RedirectError,
  type RequestTarget,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
  type WireError,
} from './errors.js';
import { conforms, type Drift, driftIssue, inspect, reportOnce } from '../schemas/drift.js';
import { type VendorSpelling, vendorSpelling } from '../schemas/vendor.js';
import { parseLinkHeader } from './link.js';
import { CREDENTIAL_HEADERS, type Logger, redactUrl, scrub, scrubbedHeaders, scrubHeaders, silentLogger } from './logger.js';
import { type ApiName, BIND_CLIENT, MAX_TIMEOUT_MS, type RefreshableTokenSource, type ResolvedOptions, type TokenSource } from './options.js';
import { type Answered, type APIPromise, type APIResponse, apiPromise } from './api-promise.js';
import { type PageData, PagePromise } from './pagination.js';
import type { RequestPath } from './paths.js';
import { encodeQuery, type QueryParams } from './query.js';
import { RateLimiter } from './rate-limit.js';
import { sleep, within } from './time.js';
import { isHeaderValue, tryParseJson } from './text.js';

/** The optional last argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  headers?: Record<string, string>;
}

/** Options of a paginated list call. */
export interface ListOptions extends RequestOptions {
  /**
   * Fetch the next page while the caller works on the current one. Off by default: it
   * spends one request more when the caller stops early, and catalog requests are budgeted.
   */
  prefetch?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestSpec<T = unknown> {
  api: ApiName;
  method: HttpMethod;
  /** A checked path (see `path`), a fixed path, or an absolute URL (next pages). */
  path: RequestPath | string;
  query?: QueryParams;
  /**
   * Checks `query` when the request is built, inside the call's promise: a bad parameter
   * rejects it with `RequestValidationError`, also for a `PagePromise`, and nothing is sent.
   */
  querySchema?: z.ZodMiniType;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data. */
  form?: FormData;
  /** Checks the answer; without it the answer is returned as parsed. */
  schema?: z.ZodMiniType<T>;
  /** Safe to repeat on a transient failure. Default: only GET. */
  idempotent?: boolean;
  /** Named in the message of a 401 or 403, e.g. 'favorites'. */
  permission?: string;
  /** Legacy v2 `authenticate` carries no token. */
  anonymous?: boolean;
  /**
   * Told of each request put on the wire (retries and redirect hops included), and of each
   * that got no complete answer, so it may have taken effect unseen. For `updateMany`'s report.
   */
  onWire?: (event: 'sent' | 'unanswered') => void;
  options?: RequestOptions | undefined;
}

/** Where an answer came from, for its errors and drift reports. */
export interface AnswerContext {
  api: ApiName;
  status: number;
  headers: Headers;
  target: RequestTarget;
}

/**
 * A successful answer: the checked body, or undefined for an empty one. A class, so a call
 * allocates no closures for what only some callers read (`link`, `response()`).
 */
export class Answer<T> implements Answered {
  readonly body: T;
  readonly #raw: RawAnswer;
  /** The token the request carried, to scrub from what `response()` shows. */
  readonly #token: string | undefined;

  constructor(body: T, raw: RawAnswer, token: string | undefined) {
    this.body = body;
    this.#raw = raw;
    this.#token = token;
  }

  get status(): number {
    return this.#raw.status;
  }

  get headers(): Headers {
    return this.#raw.headers;
  }

  /** The URL that answered, after redirects. */
  get url(): string {
    return this.#raw.url;
  }

  /** The Link header; a cached answer's own (a 304 carries none). */
  get link(): string | null {
    const cached = this.#raw.cachedLink;
    return cached !== undefined ? cached : this.#raw.headers.get('link');
  }

  /** What `.withResponse()` and `page.response` show: credentials and the token scrubbed, as in errors. */
  response(): APIResponse {
    const token = this.#token;
    return {
      status: this.#raw.status,
      // As errors show them: the token scrubbed from every value.
      headers: scrubbedHeaders(this.#raw.headers, token),
      url: scrub(redactUrl(this.#raw.url), token),
      requestId: requestIdOf(this.#raw.headers),
    };
  }
}

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  url: string;
  /** The Link header of a cached answer (a 304 carries none); read from `headers` otherwise. */
  cachedLink?: string | null;
  /** The token the request carried. */
  token: string | undefined;
}

/** A call without options (most calls): one object for all of them. */
const NO_OPTIONS: RequestOptions = Object.freeze({});
const MAX_REDIRECTS = 5;
/** The token each 401 refused, so that concurrent refusals of one token renew it once. */
const refusedTokens = new WeakMap<Error, string>();
const MAX_RETRY_WAIT_MS = 120_000;
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
const BUDGETED_APIS = new Set<ApiName>(['catalog', 'account']);

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
  readonly #permanentRedirects = new Map<string, string>();
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

  constructor(options: ResolvedOptions) {
    this.#options = options;
    this.vendorSpelling = vendorSpelling(options.vendor);
    this.#acceptV3 = `application/vnd.${options.vendor}+json; version=3.0`;
    this.#acceptOther = `application/vnd.${options.vendor}+json; version=${options.apiVersion}`;
    this.#logger = options.logger ?? silentLogger;
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
    if (typeof source === 'function') (source as RefreshableTokenSource)[BIND_CLIENT]?.(this.#options.baseUrl, api);
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

  /** A paginated list: the first page now, the rest on demand. */
  /**
   * A paginated list whose items sit under the answer's root key `itemsKey`; the page's
   * `meta` is the answer's `meta` (absent or null both as undefined).
   */
  list<Body extends object, K extends keyof Body>(
    spec: RequestSpec<Body>,
    itemsKey: K,
  ): PagePromise<ItemOf<Body[K]>, MetaOf<Body>> {
    type Item = ItemOf<Body[K]>;
    type Meta = MetaOf<Body>;
    const fetchPage = async (url: string | undefined): Promise<PageData<Item, Meta>> => {
      const answer = await this.send(url === undefined ? spec : { ...spec, path: url, query: undefined, querySchema: undefined });
      if (answer.body === undefined) {
        throw new ResponseValidationError('a list answer was empty', {
          status: answer.status,
          target: { method: spec.method, url: redactUrl(answer.url) },
          requestId: requestIdOf(answer.headers),
        });
      }
      const body = answer.body as Body & { meta?: Meta | null };
      return {
        items: body[itemsKey] as Item[],
        meta: body.meta ?? undefined,
        body,
        url: answer.url,
        links: resolveLinks(parseLinkHeader(answer.link), answer.url),
        answer,
      };
    };
    return new PagePromise(fetchPage, { prefetch: (spec.options as ListOptions | undefined)?.prefetch });
  }

  async send<T>(spec: RequestSpec<T>): Promise<Answer<T>> {
    const url = this.#buildUrl(spec);
    const target: RequestTarget = { method: spec.method, url: redactUrl(url) };
    const options = spec.options ?? NO_OPTIONS;
    const signal = options.signal;
    const retryable = spec.idempotent ?? spec.method === 'GET';
    const maxRetries = options.maxRetries ?? this.#options.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new RequestValidationError('Invalid request options', [
        { path: ['maxRetries'], message: 'must be a non-negative integer' },
      ]);
    }
    const timeout = options.timeout;
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 1 && timeout <= MAX_TIMEOUT_MS)) {
      throw new RequestValidationError('Invalid request options', [
        { path: ['timeout'], message: `must be a number from 1 to ${MAX_TIMEOUT_MS}` },
      ]);
    }

    if (options.headers !== undefined) checkHeaders(options.headers);

    const retries = retryable ? maxRetries : 0;
    let raw: RawAnswer;
    try {
      try {
        // The first attempt runs outside p-retry: most requests succeed at once, and entering
        // p-retry costs several microseconds per request. Retries go through it.
        raw = await this.#attempt(spec, url, target);
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        if (await this.#refreshedAfter401(spec, target, error)) raw = await this.#attempt(spec, url, target, 1);
        else if (retries === 0) throw error;
        else raw = await this.#retry(spec, url, target, error, retries);
      }
    } catch (error) {
      // An abort rejects with the caller's reason, unchanged, as fetch does.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }

    return new Answer(this.#parseBody(raw, spec, target), raw, raw.token);
  }

  /**
   * The API refused the token with a 401 and its source can renew it (OAuth): one new token,
   * and the refused call is repeated once with it. A refusal from the token endpoint itself
   * (its URL is not the call's) is final.
   */
  async #refreshedAfter401(spec: RequestSpec<unknown>, target: RequestTarget, error: Error): Promise<boolean> {
    if (!(error instanceof AuthenticationError) || error.status !== 401 || error.url !== target.url) return false;
    const source = this.#tokens[spec.api];
    const refresh = typeof source === 'function' ? (source as Partial<RefreshableTokenSource>).refresh : undefined;
    if (typeof refresh !== 'function') return false;
    await refresh.call(source, refusedTokens.get(error));
    return true;
  }

  /** Attempts after a failed first one; delays are computed here (jitter, Retry-After, rate-limit reset), not by p-retry. */
  async #retry(spec: RequestSpec<unknown>, url: string, target: RequestTarget, first: Error, retries: number): Promise<RawAnswer> {
    const signal = spec.options?.signal;
    const backOff = async (error: Error, attemptNumber: number, retriesLeft: number): Promise<boolean> => {
      if (!isTransient(error)) return false;
      const wait = this.#retryDelay(error, attemptNumber);
      if (wait === undefined) return false;
      this.#logger.debug(
        `retry ${attemptNumber}/${attemptNumber + retriesLeft - 1} in ${wait} ms after: ${error.message}`,
        { method: target.method, url: target.url },
      );
      await sleep(wait, signal);
      return true;
    };
    if (!(await backOff(first, 1, retries))) throw first;
    // p-retry counts from 1 for its first call, which is the call's first retry (attempt 1).
    return pRetry((attemptNumber) => this.#attempt(spec, url, target, attemptNumber), {
      retries: retries - 1,
      minTimeout: 0,
      maxTimeout: 0,
      signal,
      shouldRetry: ({ error, attemptNumber, retriesLeft }) => backOff(error, attemptNumber + 1, retriesLeft),
    });
  }

  #buildUrl(spec: RequestSpec<unknown>): string {
    const relative = typeof spec.path === 'string' ? spec.path : spec.path.build();
    // A path starts with '/'; anything else may be an absolute URL (a next-page link).
    if (relative.charCodeAt(0) !== 47 /* / */ && /^https?:\/\//i.test(relative)) return relative;
    const base = spec.api === 'legacyV2' ? this.#options.legacyBaseUrl : this.#options.baseUrl;
    if (base === undefined) {
      throw new RequestValidationError('The legacy v2 interface needs the `legacyBaseUrl` client option');
    }
    if (spec.querySchema) {
      const checked = spec.querySchema.safeParse(spec.query ?? {});
      if (!checked.success) throw new RequestValidationError('Invalid parameters', toIssues(checked.error, spec.query ?? {}));
    }
    return base + relative + encodeQuery(spec.query);
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
    const headers: Record<string, string> = options.headers ? lowerCaseKeys(options.headers) : {};
    headers.accept = accept;
    headers['user-agent'] = this.#options.userAgent;
    let body: BodyInit | undefined;
    if (spec.form) body = spec.form;
    else if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json; charset=utf-8';
    }

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
    const error = this.#toApiError(spec, raw, target, token, tokenId);
    if (token !== undefined && error.status === 401) refusedTokens.set(error, token);
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
    const apiOrigin = spec.api === 'legacyV2' ? this.#legacyOrigin : this.#baseOrigin;
    let method: string = spec.method;
    let url = startUrl;
    let visited: Set<string> | undefined;

    for (let hop = 0; ; hop++) {
      // Every hop is a request of its own: it waits for a held window, counts against the budget,
      // and holds room in the window until its answer is in (hence release right after).
      const admitted = this.rateLimiter.acquire(tokenId, BUDGETED_APIS.has(spec.api), target, spec.options?.signal);
      const countedIn = typeof admitted === 'string' ? admitted : await admitted;
      url = this.#remembered(url);
      // The token goes only to the API's own origin, never to a redirect or link target elsewhere;
      // nor does any other credential the caller added.
      if (!isSameOrigin(url, apiOrigin)) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      else if (token !== undefined && spec.api !== 'legacyV2') headers.authorization = `Bearer ${token}`;
      else delete headers.authorization;

      let raw: RawAnswer;
      spec.onWire?.('sent');
      try {
        raw = await this.#fetchOnce(method, url, headers, body, spec.options, target, token, attempt);
        this.rateLimiter.observe(tokenId, raw.headers, countedIn);
      } catch (error) {
        if (error instanceof ConnectionError || error instanceof TimeoutError) spec.onWire?.('unanswered');
        throw error;
      } finally {
        this.rateLimiter.release(tokenId, countedIn);
      }
      if (!isRedirect(raw.status)) return raw;

      const location = raw.headers.get('location');
      const requestId = requestIdOf(raw.headers);
      if (!location) throw new RedirectError(`${raw.status} redirect without a Location header`, target, requestId);
      const next = httpUrl(location, url);
      if (next === undefined) throw new RedirectError(`${raw.status} redirect to a location that is not http(s)`, target, requestId);
      const nextUrl = new URL(next);
      // Its credentials stay out of the message: the URL is not shown.
      if (nextUrl.username || nextUrl.password) {
        throw new RedirectError(`${raw.status} redirect to a URL with credentials in it, not followed`, target, requestId);
      }
      // The body and custom headers would travel in clear text.
      if (nextUrl.protocol === 'http:' && url.startsWith('https:')) {
        throw new RedirectError(`${raw.status} redirect from https to http, not followed`, target, requestId);
      }
      visited ??= new Set([startUrl]);
      if (visited.has(next)) throw new RedirectError(`redirect loop at ${scrub(redactUrl(next), token)}`, target, requestId);
      if (hop + 1 > MAX_REDIRECTS) throw new RedirectError(`more than ${MAX_REDIRECTS} redirects`, target, requestId);
      visited.add(next);

      if (raw.status === 301 || raw.status === 308) {
        if (this.#permanentRedirects.size >= 1000) this.#permanentRedirects.clear();
        // The URL that answered 301/308, not where the request began: an earlier 302 hop stays temporary.
        this.#permanentRedirects.set(url, next);
      }
      if (raw.status === 303 && method !== 'GET') {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      this.#logger.debug(`redirect ${raw.status} to ${scrub(redactUrl(next), token)}`, { url: target.url });
      url = next;
    }
  }

  /** Where 301/308 answers sent `url`, following remembered hops (a few at most, no cycle). */
  #remembered(url: string): string {
    let target = url;
    for (let i = 0; i < MAX_REDIRECTS; i++) {
      const next = this.#permanentRedirects.get(target);
      if (next === undefined || next === url) break;
      target = next;
    }
    return target;
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
      const init: KyOptions = { method, headers, body, timeout };
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
        const requestId = requestIdOf(response.headers);
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
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
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

  #toApiError(spec: RequestSpec<unknown>, raw: RawAnswer, target: RequestTarget, token: string | undefined, tokenId: string): ApiError {
    let errors: WireError[] = [];
    let detail: string | undefined;
    const parsed = tryParseJson(raw.text);
    if (isObject(parsed) && Array.isArray(parsed.errors)) {
      errors = parsed.errors.filter(isObject).map((e) => ({
        code: wireText(e.code),
        messages: (Array.isArray(e.messages) ? e.messages : [e.messages ?? e.message]).map(wireText).filter(Boolean),
      }));
    } else if (isObject(parsed) && isObject(parsed.error) && spec.api === 'legacyV2') {
      // A legacy v2 envelope on an HTTP error: its error element, under the status's class.
      const { code, text } = parsed.error;
      errors = [{ code: wireText(code), messages: [wireText(text)].filter(Boolean) }];
    } else if (isObject(parsed) && typeof parsed.message === 'string') {
      detail = parsed.message;
    } else if (raw.text) {
      // Scrubbed before it is cut: a cut token would no longer be recognised.
      detail = excerpt(scrub(raw.text, token));
    }
    if (token) {
      detail = detail === undefined ? undefined : scrub(detail, token);
      errors = errors.map((e) => ({ code: scrub(e.code, token), messages: e.messages.map((m) => scrub(m, token)) }));
    }
    const rateLimitBody = !(isObject(parsed) && Array.isArray(parsed.errors));
    const ErrorClass = apiErrorClass(raw.status, rateLimitBody, errors);
    // Every account call needs a user token (document 3); some also name a permission.
    const needs = spec.permission
      ? `a user token with the ${spec.permission} permission`
      : spec.api === 'account'
        ? 'a user token'
        : undefined;
    const hint = needs && (raw.status === 401 || (raw.status === 403 && !rateLimitBody)) ? `this call needs ${needs}` : undefined;
    const headers = scrubbedHeaders(raw.headers, token);
    const error = new ErrorClass({ status: raw.status, errors, headers, target, detail, hint, api: spec.api });
    if (error instanceof RateLimitError) {
      // Later requests of this token wait for the reset, or for Retry-After when that is all there is.
      const retryAfter = retryAfterMs(raw.headers.get('retry-after'));
      const until = error.reset ?? (retryAfter === undefined ? undefined : (Date.now() + retryAfter) / 1000);
      if (until !== undefined) this.rateLimiter.exhaust(tokenId, until);
    }
    return error;
  }

  #retryDelay(error: Error, attemptNumber: number): number | undefined {
    let wait: number | undefined;
    if (error instanceof RateLimitError || error instanceof InternalServerError) {
      wait = retryAfterMs(error.headers.get('retry-after'));
      if (wait === undefined && error instanceof RateLimitError && error.reset !== undefined) {
        wait = Math.max(0, error.reset * 1000 - Date.now()) + 50;
      }
    }
    // Full jitter: anywhere between 0 and the exponential ceiling.
    wait ??= Math.round(Math.random() * Math.min(8_000, 500 * 2 ** (attemptNumber - 1)));
    return wait > MAX_RETRY_WAIT_MS ? undefined : wait;
  }

  #parseBody<T>(raw: RawAnswer, spec: RequestSpec<T>, target: RequestTarget): T {
    let data: unknown;
    try {
      // An empty answer is undefined; a schema then decides whether that is acceptable.
      data = raw.text.length === 0 || raw.status === 204 ? undefined : JSON.parse(raw.text);
    } catch {
      // No cause: the parser's message quotes the body, which may echo a credential.
      throw new ResponseValidationError('the answer is not valid JSON', {
        status: raw.status,
        target,
        requestId: requestIdOf(raw.headers),
      });
    }
    if (!spec.schema) return data as T;
    return this.accept(spec.schema, data, { api: spec.api, status: raw.status, headers: raw.headers, target });
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
        requestId: requestIdOf(answer.headers),
      });
    }
    reportOnce(drift, this.#driftSeen, (found) => this.#reportDrift(answer, found), answer.api);
    return data as T;
  }

  #reportDrift({ api, target }: AnswerContext, drift: Drift): void {
    const { path, expected, received } = drift;
    const onDrift = this.#options.hooks.onDrift;
    if (onDrift) {
      const report = { api, method: target.method, url: target.url, path, expected, received };
      this.#callHook('onDrift', () => onDrift(report), undefined);
    } else this.#logger.warn?.(`the answer drifted from its documented shape at ${path}: expected ${expected}, received ${received}`, { ...target });
  }

  /** A cached answer; synchronous for synchronous stores (the default), so a miss costs no await. */
  /** A store that fails or hangs costs the cache, never the request. */
  #cacheFailed(what: 'read' | 'write', error: unknown): undefined {
    this.#logger.warn?.(`cache ${what} failed`, { error: String(error) });
    return undefined;
  }

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

const bodyOf = (answer: Answered): unknown => (answer as Answer<unknown>).body;

/** The item type of a list answer's root array. */
type ItemOf<T> = T extends readonly (infer Item)[] ? Item : never;
/** The type of a list answer's `meta`, without null. */
type MetaOf<Body> = Body extends { meta?: infer Meta } ? Exclude<Meta, null | undefined> : undefined;

/** True when `url` is on `origin` (a configured base's origin, no trailing slash). */
function isSameOrigin(url: string, origin: string): boolean {
  if (origin === '' || !url.startsWith(origin)) return false;
  const next = url.charCodeAt(origin.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */ || next === 35 /* # */;
}

/** Marks a body read that ran out of time (never seen by callers: mapped to TimeoutError). */
const BODY_TIMEOUT = Symbol('body timeout');
/** Marks a body cancelled at `maxResponseBytes` (mapped to ResponseTooLargeError). */
const BODY_TOO_LARGE = Symbol('body too large');

/**
 * The body as text, read as a stream so it can be stopped: past `limit` decoded bytes
 * (fetch has already undone gzip/br, so a small bomb counts at its full size), at the
 * deadline, or on the caller's abort. Stopping cancels the stream, which closes the
 * connection instead of leaving it downloading.
 */
async function readBody(response: Response, limit: number, deadline: number, signal: AbortSignal | undefined): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  let stopped = false;
  let reason: unknown;
  const stop = (why: unknown) => {
    if (stopped) return;
    stopped = true;
    reason = why;
    reader.cancel().catch(() => {});
  };
  const timer = setTimeout(stop, Math.max(1, deadline - Date.now()), BODY_TIMEOUT);
  const abort = signal && (() => stop(signal.reason));
  if (abort) signal?.addEventListener('abort', abort, { once: true });
  // Decoded once at the end: one call, no streaming state (a body is mostly one chunk).
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stopped) throw reason;
      if (done) return decodeUtf8(chunks, total);
      total += value.byteLength;
      if (total > limit) {
        stop(BODY_TOO_LARGE);
        throw BODY_TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (error) {
    const why = stopped ? reason : error;
    stop(error);
    throw why;
  } finally {
    clearTimeout(timer);
    if (abort) signal?.removeEventListener('abort', abort);
  }
}

const utf8 = new TextDecoder();

/** The body's bytes as text (UTF-8, invalid sequences replaced, as `response.text()` does). */
function decodeUtf8(chunks: readonly Uint8Array[], total: number): string {
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(bytes);
}

/** A body stream that failed in its decompressor (zlib, brotli), not on the socket. */
function isDecodingFailure(error: unknown): boolean {
  const code = error instanceof Error && error.cause instanceof Error ? (error.cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZLIB|ERR_ZSTD)/.test(code);
}

/** A request URL as logs and hooks show it: a redirect target may echo the token in a parameter redactUrl does not know. */
const shownUrl = (url: string, token: string | undefined): string => scrub(redactUrl(url), token);

const requestIdOf = (headers: Headers): string | undefined => headers.get('x-request-id') ?? undefined;

/** Link targets resolved against the page's URL (RFC 8288); targets that are not http(s) are dropped. */
function resolveLinks(links: Map<string, string>, pageUrl: string): Map<string, string> {
  const resolved = new Map<string, string>();
  for (const [rel, target] of links) {
    const url = httpUrl(target, pageUrl);
    if (url !== undefined) resolved.set(rel, url);
  }
  return resolved;
}

/** `reference` resolved against `base` when it is an http(s) URL; undefined otherwise. */
function httpUrl(reference: string, base: string): string | undefined {
  try {
    const url = new URL(reference, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** Headers the SDK or fetch decide (framing, connection): a caller's value would break the request. */
const RESERVED_HEADERS = new Set(['connection', 'content-length', 'expect', 'host', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** `RequestOptions.headers`, checked before anything is sent: names are tokens, values sendable. */
function checkHeaders(headers: Record<string, string>): void {
  const issues: ValidationIssue[] = [];
  if (typeof headers !== 'object' || headers === null) {
    throw new RequestValidationError('Invalid request options', [{ path: ['headers'], message: 'must be an object of strings' }]);
  }
  for (const [name, value] of Object.entries(headers)) {
    const path = ['headers', name];
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(name)) issues.push({ path, message: 'is not a valid header name' });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) issues.push({ path, message: 'is set by the HTTP layer and cannot be given' });
    else if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
    // The value is not quoted: it may be a credential.
    else if (!isHeaderValue(value)) issues.push({ path, message: 'contains a line break, NUL or a character outside Latin-1' });
  }
  if (issues.length > 0) throw new RequestValidationError('Invalid request headers', issues);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function isTransient(error: Error): boolean {
  if (error instanceof RateLimitBudgetError) return false;
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof RateLimitError ||
    (error instanceof InternalServerError && RETRYABLE_STATUS.has(error.status))
  );
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A wire error's code or message as text: a string as is, any other value as its JSON (never `[object Object]`). */
function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  try {
    return excerpt(JSON.stringify(value));
  } catch {
    return '';
  }
}

/** A short, single-line excerpt of a non-JSON body (an HTML error page from a proxy). */
function excerpt(text: string): string {
  const plain = text.replace(/<[^>]{0,200}>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 160 ? `${plain.slice(0, 160)}…` : plain;
}

/** The data of a call that resolves to nothing (an action answered 204 or `{ success: true }`). */
export const noData = (): undefined => undefined;
