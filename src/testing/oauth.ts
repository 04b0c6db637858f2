/**
 * The service's OAuth 2.0 (the OAuth 2.0 documentation) on the mock: `POST /oauth2/token` (client
 * credentials, authorization code, refresh token) and the user's consent at
 * `GET /oauth2/authorizations/new`, which redirects at once to `redirect_uri?code=…`
 * (or `?error=access_denied` after `mock.oauth.denyConsent()`). Tokens it issues are
 * accepted by the catalog (every token) and account (user tokens) routes until they expire
 * on the mock clock, so a client's refresh is exercised by `mock.clock.advance`.
 */
import { readLimited } from '../webhooks/read-limited.js';
import type { Random } from './random.js';
import type { Route, RouteContext } from './router.js';
import { json } from './wire.js';

export interface MockOAuthOptions {
  /** The registered application; default `test-client-id` / `test-client-secret`. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Lifetime of an application token; default 1,209,600 (2 weeks, like the service). */
  appTokenLifetimeSeconds?: number | undefined;
  /** Lifetime of a user token; default 86,400 (a day). Tests use a few seconds. */
  userTokenLifetimeSeconds?: number | undefined;
}

interface IssuedToken {
  kind: 'app' | 'user';
  scopes: Set<string>;
  expiresAt: number;
}

const SCOPES = new Set(['public', 'favorites', 'notifications']);
/** A token request is a few form fields; anything much larger is refused unread. */
const MAX_TOKEN_REQUEST_BYTES = 64 * 1024;
/** What an account path needs beyond a user token (the Catalog API documentation's permissions). */
export type TokenVerdict = { ok: true; user: boolean; scopes: Set<string> } | { ok: false; reason: 'expired' } | undefined;

export function createOAuth(context: { now: () => number; random: Random }, options: MockOAuthOptions = {}) {
  const clientId = options.clientId ?? 'test-client-id';
  const clientSecret = options.clientSecret ?? 'test-client-secret';
  const lifetime = { app: options.appTokenLifetimeSeconds ?? 1_209_600, user: options.userTokenLifetimeSeconds ?? 86_400 };
  for (const [name, value] of Object.entries(lifetime)) {
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`oauth.${name}TokenLifetimeSeconds must be a positive number`);
  }
  const tokens = new Map<string, IssuedToken>();
  const codes = new Map<string, { redirectUri: string; scopes: Set<string> }>();
  const refreshTokens = new Map<string, Set<string>>();
  let deny = false;
  let issued = 0;

  const secret = (prefix: string) => `${prefix}_${context.random.id(24)}`;
  const oauthError = (status: number, error: string, description: string) =>
    json(status, { error, error_description: description });

  const issue = (kind: 'app' | 'user', scopes: Set<string>) => {
    const accessToken = secret(kind === 'app' ? 'app' : 'usr');
    const expiresIn = lifetime[kind];
    tokens.set(accessToken, { kind, scopes, expiresAt: context.now() + expiresIn * 1000 });
    issued++;
    const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'bearer', expires_in: expiresIn };
    if (kind === 'user') {
      const refreshToken = secret('ref');
      refreshTokens.set(refreshToken, scopes);
      answer.refresh_token = refreshToken;
    }
    return json(200, answer, { 'Cache-Control': 'no-store' });
  };

  const token = async ({ request }: RouteContext): Promise<Response> => {
    const type = request.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'Parameters must be form-encoded.');
    }
    const bytes = await readLimited(request, MAX_TOKEN_REQUEST_BYTES);
    if (bytes === undefined) return oauthError(413, 'invalid_request', `The request body is larger than ${MAX_TOKEN_REQUEST_BYTES} bytes.`);
    const form = new URLSearchParams(new TextDecoder().decode(bytes));
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return oauthError(401, 'invalid_client', 'Client authentication failed.');
    }
    switch (form.get('grant_type')) {
      case 'client_credentials': {
        const scopes = new Set((form.get('scope') ?? 'public').split(' ').filter(Boolean));
        if ([...scopes].some((scope) => scope !== 'public')) return oauthError(400, 'invalid_scope', 'Application tokens have the public scope only.');
        return issue('app', new Set(['public']));
      }
      case 'authorization_code': {
        const grant = codes.get(form.get('code') ?? '');
        if (!grant || grant.redirectUri !== form.get('redirect_uri')) {
          return oauthError(400, 'invalid_grant', 'The authorization code is invalid, used or issued for another redirect_uri.');
        }
        codes.delete(form.get('code') as string);
        return issue('user', grant.scopes);
      }
      case 'refresh_token': {
        const refreshToken = form.get('refresh_token') ?? '';
        const scopes = refreshTokens.get(refreshToken);
        if (!scopes) return oauthError(400, 'invalid_grant', 'The refresh token is invalid or was already used.');
        refreshTokens.delete(refreshToken);
        return issue('user', scopes);
      }
      default:
        return oauthError(400, 'unsupported_grant_type', 'grant_type must be client_credentials, authorization_code or refresh_token.');
    }
  };

  const authorize = ({ url }: RouteContext): Response => {
    const query = url.searchParams;
    const redirect = query.get('redirect_uri') ?? '';
    let target: URL;
    try {
      target = new URL(redirect);
    } catch {
      return oauthError(400, 'invalid_request', 'redirect_uri must be an absolute URL.');
    }
    if (query.get('client_id') !== clientId) return oauthError(400, 'invalid_client', 'Unknown client_id.');
    const scopes = new Set((query.get('scope') ?? '').split(' ').filter(Boolean));
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (query.get('response_type') !== 'code' || scopes.size === 0 || [...scopes].some((scope) => !SCOPES.has(scope))) {
      target.searchParams.set('error', 'invalid_request');
    } else if (deny) {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = secret('code');
      codes.set(code, { redirectUri: redirect, scopes });
      target.searchParams.set('code', code);
    }
    return new Response(null, { status: 302, headers: { Location: target.href } });
  };

  const routes: Route[] = [
    { method: 'POST', pattern: '/oauth2/token', api: 'oauth', handler: token },
    { method: 'GET', pattern: '/oauth2/authorizations/new', api: 'oauth', handler: authorize },
  ];

  /** What the mock makes of a bearer token it issued: valid (with its kind and scopes), expired, or unknown. */
  const verdict = (accessToken: string): TokenVerdict => {
    const entry = tokens.get(accessToken);
    if (!entry) return undefined;
    if (entry.expiresAt <= context.now()) return { ok: false, reason: 'expired' };
    return { ok: true, user: entry.kind === 'user', scopes: entry.scopes };
  };

  const kit = {
    clientId,
    clientSecret,
    /** The user refuses (true) or grants (false, the default) consent from now on. */
    denyConsent(refuse = true): void {
      deny = refuse;
    },
    /** Access tokens issued so far (each grant and refresh counts one). */
    get tokensIssued(): number {
      return issued;
    },
    /** Ends every token's life now, as the service's daily cap does. */
    expireAll(): void {
      for (const entry of tokens.values()) entry.expiresAt = 0;
    },
  };
  return { routes, kit, verdict };
}
