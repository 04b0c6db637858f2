/**
 * OAuth 2.0 for the catalog and account APIs (the OAuth 2.0 documentation). Token requests go to the
 * service's web host, form-encoded, outside the API's request path (no vendor Accept header,
 * no bearer token, never retried: a refused credential stays refused). Secrets and tokens
 * never appear in errors: every text taken from an answer is scrubbed of them.
 */
import { VERSION } from '../version.js';
import { BODY_TIMEOUT, BODY_TOO_LARGE, readBody } from './answer.js';
import { AuthenticationError, ConnectionError, type RequestTarget, ResponseTooLargeError, TimeoutError } from './errors.js';
import { scrub, scrubbedHeaders } from './logger.js';
import { type ApiName, BIND_CLIENT, checkBaseUrl, DEFAULT_MAX_RESPONSE_BYTES, type RefreshableTokenSource } from './options.js';
import { isHeaderValue, tryParseJson } from './text.js';
import { within } from './time.js';

/** The token endpoint's answer. */
export interface OAuthTokens {
  access_token: string;
  token_type: string;
  /** Seconds the access token lives. */
  expires_in?: number | undefined;
  /** User tokens only: what `userToken` renews the access token with. */
  refresh_token?: string | undefined;
}

/** What every token request may also take. */
export interface TokenRequestOptions {
  /** The token endpoint: `https://www.<domain>/oauth2/token` (https, or http on loopback). A token source given to a client defaults it from the client's `baseUrl` (`api.` → `www.`). */
  tokenUrl?: string | undefined;
  /** Custom fetch (a mock's `fetch`, a proxy agent). */
  fetch?: typeof fetch | undefined;
  /** Milliseconds the token request may take; default 30,000. */
  timeout?: number | undefined;
}

export interface ClientCredentialsOptions extends TokenRequestOptions {
  clientId: string;
  clientSecret: string;
  /** Default `public`, the only scope of application tokens. */
  scope?: string | undefined;
}

export interface AuthorizationUrlOptions {
  clientId: string;
  redirectUri: string;
  /** `public`, `favorites`, `notifications`: a list or a space-separated string. */
  scope: string | readonly string[];
  /** Returned unchanged on the redirect: check it there against cross-site request forgery. */
  state?: string | undefined;
  /** The service's web host (`https://www.<domain>`), or its API base (`api.` becomes `www.`). */
  baseUrl?: string | undefined;
}

export interface ExchangeAuthorizationCodeOptions extends TokenRequestOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The `code` parameter of the redirect, decoded once (as `URLSearchParams` gives it). */
  code: string;
}

export interface UserTokenOptions extends TokenRequestOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The current access token, used until it is refused or its replacement is needed. */
  accessToken?: string | undefined;
  /**
   * Receives every new token pair (the refresh token may change): store it. The source keeps
   * the new pair before this runs, and the calls that waited for the renewal wait for it too,
   * within the source's `timeout`: a rejection fails those calls with its error (so a failed
   * save is seen), one that never settles fails them with `TimeoutError`. Neither blocks the
   * source: later calls use the new token.
   */
  onRefresh?: ((tokens: OAuthTokens) => void | Promise<void>) | undefined;
}

type Step = 'client credentials' | 'code exchange' | 'refresh';
const DEFAULT_TIMEOUT_MS = 30_000;
/** Refresh this long before `expires_in` runs out (at most a tenth of the lifetime). */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * A token source for `tokens.catalog`: an application token (client credentials grant),
 * fetched on first use and kept until shortly before it expires; concurrent callers share
 * one request, and after a 401 the client fetches a new token once.
 */
export function clientCredentials(options: ClientCredentialsOptions): RefreshableTokenSource {
  const what = 'clientCredentials';
  const clientId = required(what, 'clientId', options.clientId);
  const clientSecret = required(what, 'clientSecret', options.clientSecret);
  const scope = options.scope ?? 'public';
  return tokenSource(what, 'catalog', options, (tokenUrl, api, maxResponseBytes) =>
    requestToken('client credentials', api, tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope }, [clientSecret], options, maxResponseBytes),
  );
}

/** The URL to send the user's browser to; the service redirects to `redirectUri?code=…` (or `?error=access_denied`). */
export function authorizationUrl(options: AuthorizationUrlOptions): string {
  const what = 'authorizationUrl';
  const clientId = required(what, 'clientId', options.clientId);
  const redirectUri = required(what, 'redirectUri', options.redirectUri);
  const scope = typeof options.scope === 'string' ? options.scope : options.scope.join(' ');
  required(what, 'scope', scope.trim());
  if (options.baseUrl === undefined) throw new TypeError(`${what}: option \`baseUrl\` is required: the service's web host, e.g. https://www.example.gr`);
  const url = new URL('/oauth2/authorizations/new', webOrigin('baseUrl', options.baseUrl));
  url.search = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope }).toString();
  if (options.state !== undefined) url.searchParams.set('state', options.state);
  return url.href;
}

/** Step 2 of the user token: the redirect's `code` for a token pair (an access token that lives a day, and a refresh token). */
export async function exchangeAuthorizationCode(options: ExchangeAuthorizationCodeOptions): Promise<OAuthTokens> {
  const what = 'exchangeAuthorizationCode';
  const clientId = required(what, 'clientId', options.clientId);
  const clientSecret = required(what, 'clientSecret', options.clientSecret);
  const code = required(what, 'code', options.code);
  if (options.tokenUrl === undefined) throw new TypeError(`${what}: option \`tokenUrl\` is required: https://www.<domain>/oauth2/token`);
  const tokenUrl = checkBaseUrl('tokenUrl', options.tokenUrl);
  const params = { grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, redirect_uri: required(what, 'redirectUri', options.redirectUri), code };
  return requestToken('code exchange', 'account', tokenUrl, params, [clientSecret, code], options, DEFAULT_MAX_RESPONSE_BYTES);
}

/**
 * A token source for `tokens.account`: the user's access token, renewed with the refresh
 * token shortly before it expires and once after a 401; every new pair goes to `onRefresh`.
 */
export function userToken(options: UserTokenOptions): RefreshableTokenSource {
  const what = 'userToken';
  const clientId = required(what, 'clientId', options.clientId);
  const clientSecret = required(what, 'clientSecret', options.clientSecret);
  let refreshToken = required(what, 'refreshToken', options.refreshToken);
  const initial = options.accessToken === undefined ? undefined : required(what, 'accessToken', options.accessToken);
  return tokenSource(
    what,
    'account',
    options,
    async (tokenUrl, api, maxResponseBytes) => {
      const used = refreshToken;
      const params = { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: used };
      const tokens = await requestToken('refresh', api, tokenUrl, params, [clientSecret, used], options, maxResponseBytes);
      if (tokens.refresh_token) refreshToken = tokens.refresh_token;
      return tokens;
    },
    initial,
    options.onRefresh,
  );
}

/** The shared part of both sources: one token at a time, one request in flight, renewal before expiry. */
function tokenSource(
  what: string,
  defaultApi: ApiName,
  options: TokenRequestOptions,
  fetchTokens: (tokenUrl: string, api: ApiName, maxResponseBytes: number) => Promise<OAuthTokens>,
  initial?: string,
  onTokens?: (tokens: OAuthTokens) => void | Promise<void>,
): RefreshableTokenSource {
  let api = defaultApi;
  let maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
  let tokenUrl = options.tokenUrl === undefined ? undefined : checkBaseUrl('tokenUrl', options.tokenUrl);
  // An access token given without its lifetime is used until the service refuses it.
  let current: { token: string; renewAt: number } | undefined = initial === undefined ? undefined : { token: initial, renewAt: Number.POSITIVE_INFINITY };
  let pending: Promise<string> | undefined;

  const renew = (): Promise<string> => {
    if (pending) return pending;
    // Cleared by itself only: a renewal started while this one's onRefresh runs stays the shared one.
    const done = () => {
      if (pending === renewal) pending = undefined;
    };
    const renewal: Promise<string> = (async () => {
      try {
        if (tokenUrl === undefined) throw new TypeError(`${what}: option \`tokenUrl\` is required outside a client (a client derives it from its baseUrl)`);
        const started = Date.now();
        const tokens = await fetchTokens(tokenUrl, api, maxResponseBytes);
        const lifetimeMs = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
        current = { token: tokens.access_token, renewAt: started + lifetimeMs - Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 10) };
        done();
        // Kept first, then handed over: the callback decides no token, and holds up only these calls.
        if (onTokens) await handOver(what, onTokens, { ...tokens }, options.timeout ?? DEFAULT_TIMEOUT_MS, tokenUrl);
        return tokens.access_token;
      } finally {
        done();
      }
    })();
    pending = renewal;
    return renewal;
  };

  const source = (() => (current !== undefined && Date.now() < current.renewAt ? Promise.resolve(current.token) : renew())) as RefreshableTokenSource;
  // Calls refused together renew once: a later refusal of the old token gets the new one.
  source.refresh = (refused?: string) =>
    refused !== undefined && pending === undefined && current !== undefined && current.token !== refused ? Promise.resolve(current.token) : renew();
  source[BIND_CLIENT] = (baseUrl: string, boundApi: ApiName, clientMaxResponseBytes: number) => {
    api = boundApi;
    maxResponseBytes = clientMaxResponseBytes;
    // The client checked its baseUrl already (an http one only with `allowHttp`).
    tokenUrl ??= new URL('/oauth2/token', webOrigin('baseUrl', baseUrl, true)).href;
  };
  return source;
}

/** `onTokens(tokens)`, awaited for at most `timeout` ms; what it throws is thrown as it was. */
function handOver(what: string, onTokens: (tokens: OAuthTokens) => void | Promise<void>, tokens: OAuthTokens, timeout: number, tokenUrl: string): Promise<void> {
  return within(new Promise<void>((settle) => settle(onTokens(tokens))), timeout, () => {
    throw new TimeoutError(`${what}: onRefresh did not settle within ${timeout} ms; the new token is kept`, { method: 'POST', url: tokenUrl });
  });
}

async function requestToken(
  step: Step,
  api: ApiName,
  tokenUrl: string,
  params: Record<string, string>,
  secrets: string[],
  options: TokenRequestOptions,
  maxResponseBytes: number,
): Promise<OAuthTokens> {
  const target: RequestTarget = { method: 'POST', url: tokenUrl };
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeout;
  // Each secret in every form a server may echo it (as sent, form- or percent-encoded).
  const hide = (text: string) => secrets.reduce((out, secret) => scrub(out, secret), text);
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'user-agent': `emporio/${VERSION}` },
      body: new URLSearchParams(params).toString(),
      // A redirect would carry the credentials elsewhere: it is a failure, not followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeout),
    });
    // Bounded like every API answer: a token answer is small, an endless or bomb one is cancelled.
    text = await readBody(response, maxResponseBytes, deadline, undefined);
  } catch (error) {
    if (error === BODY_TOO_LARGE) throw new ResponseTooLargeError(maxResponseBytes, target);
    if (error === BODY_TIMEOUT || (error as Error)?.name === 'TimeoutError') throw new TimeoutError(`the OAuth ${step} token request got no answer within ${timeout} ms`, target);
    throw new ConnectionError(`the OAuth ${step} token request failed: ${hide(String((error as Error)?.message ?? error))}`, target);
  }
  // Not JSON: refused below with the status alone.
  const parsed = tryParseJson(text);
  const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const accessToken = body.access_token;
  // One that cannot be sent in a header would fail every call after it: refused here, once.
  if (response.ok && typeof accessToken === 'string' && accessToken !== '' && isHeaderValue(accessToken)) {
    const tokens: OAuthTokens = { access_token: accessToken, token_type: typeof body.token_type === 'string' ? body.token_type : 'bearer' };
    if (typeof body.expires_in === 'number') tokens.expires_in = body.expires_in;
    if (typeof body.refresh_token === 'string') tokens.refresh_token = body.refresh_token;
    return tokens;
  }
  const code = typeof body.error === 'string' ? hide(body.error) : 'oauth_error';
  const detail = typeof body.error_description === 'string' ? `: ${hide(body.error_description)}` : '';
  const problem = response.ok ? 'answered without a usable access token' : `was refused${detail}`;
  throw new AuthenticationError({
    status: response.status,
    errors: [{ code, messages: [`the OAuth ${step} token request ${problem}`] }],
    headers: secrets.reduce((headers, secret) => scrubbedHeaders(headers, secret), response.headers),
    target,
    api,
  });
}

/** The web host's origin: `api.<domain>` becomes `www.<domain>`; other hosts (a mock on loopback) stay as they are. */
function webOrigin(option: string, baseUrl: string, allowHttp = false): string {
  const url = new URL(checkBaseUrl(option, baseUrl, allowHttp));
  if (url.hostname.startsWith('api.')) url.hostname = `www.${url.hostname.slice(4)}`;
  return url.origin;
}

function required(what: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) {
    throw new TypeError(`${what}: option \`${option}\` must be a non-empty string`);
  }
  return value;
}
