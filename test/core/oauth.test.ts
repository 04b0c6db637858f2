/**
 * OAuth 2.0 token sources (spec/4 section 8) against the kit's token endpoint on loopback:
 * one shared token request, renewal before expiry and once after a 401, the authorization-code
 * flow with its redirect, errors that name the failed step and carry no secret.
 */
import {
  AuthenticationError,
  authorizationUrl,
  clientCredentials,
  exchangeAuthorizationCode,
  MarketplaceClient,
  type OAuthTokens,
  TimeoutError,
  type TokenSource,
  userToken,
} from 'emporio';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

const running: RunningMockMarketplace[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const server of running.splice(0)) await server.close();
});

async function start(oauth: Parameters<typeof startMockMarketplace>[0] = {}) {
  const server = await startMockMarketplace({ port: 0, ...oauth });
  running.push(server);
  const { clientId, clientSecret } = server.mock.oauth;
  return { server, mock: server.mock, clientId, clientSecret, tokenUrl: `${server.url}/oauth2/token` };
}

const catalogClient = (baseUrl: string, catalog: TokenSource) =>
  new MarketplaceClient({ baseUrl, vendor: 'marketplace', tokens: { catalog } });

/** The user's consent in a browser: follow the authorization URL to its redirect and read the code. */
async function consent(url: string): Promise<URL> {
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') as string);
}

describe('clientCredentials', () => {
  it('fetches one token for concurrent calls, from the tokenUrl derived from the client’s baseUrl', async () => {
    const { server, mock, clientId, clientSecret } = await start();
    const client = catalogClient(server.url, clientCredentials({ clientId, clientSecret }));
    const skus = await Promise.all([1, 2, 3].map(() => client.catalog.skus.get(mock.catalog.ids.sku)));
    expect(skus.map((s) => s.id)).toEqual([mock.catalog.ids.sku, mock.catalog.ids.sku, mock.catalog.ids.sku]);
    expect(mock.oauth.tokensIssued).toBe(1);
    expect(mock.requests.filter((r) => r.path === '/oauth2/token')).toHaveLength(1);
  });

  it('after a 401 (the token expired on the service) fetches a new token once and repeats the call once', async () => {
    const { server, mock, clientId, clientSecret } = await start();
    const client = catalogClient(server.url, clientCredentials({ clientId, clientSecret }));
    await client.catalog.skus.get(mock.catalog.ids.sku);
    mock.oauth.expireAll();
    await expect(client.catalog.skus.get(mock.catalog.ids.sku)).resolves.toMatchObject({ id: mock.catalog.ids.sku });
    expect(mock.oauth.tokensIssued).toBe(2);
    expect(mock.requests.filter((r) => r.path.startsWith('/skus/')).map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('calls refused together renew the token once', async () => {
    const { server, mock, clientId, clientSecret } = await start();
    const client = catalogClient(server.url, clientCredentials({ clientId, clientSecret }));
    await client.catalog.skus.get(mock.catalog.ids.sku);
    mock.oauth.expireAll();
    const results = await Promise.all([1, 2, 3, 4].map(() => client.catalog.skus.get(mock.catalog.ids.sku)));
    expect(results).toHaveLength(4);
    expect(mock.oauth.tokensIssued).toBe(2);
  });

  it('a token still refused after the refresh is an AuthenticationError: no second refresh, no loop', async () => {
    const { server, mock } = await start();
    let refreshes = 0;
    const source = Object.assign(async () => 'refused-token', {
      refresh: async () => {
        refreshes++;
        return 'refused-token';
      },
    });
    const client = catalogClient(server.url, source);
    await expect(client.catalog.skus.get(mock.catalog.ids.sku)).rejects.toBeInstanceOf(AuthenticationError);
    expect(refreshes).toBe(1);
    expect(mock.requests.filter((r) => r.path.startsWith('/skus/'))).toHaveLength(2);
  });

  it('renews shortly before expires_in runs out, without a refused call', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { server, mock, clientId, clientSecret } = await start({ oauth: { appTokenLifetimeSeconds: 100 } });
    const client = catalogClient(server.url, clientCredentials({ clientId, clientSecret }));
    await client.catalog.skus.get(mock.catalog.ids.sku);
    vi.setSystemTime(Date.now() + 85_000);
    await client.catalog.skus.get(mock.catalog.ids.sku);
    expect(mock.oauth.tokensIssued).toBe(1);
    vi.setSystemTime(Date.now() + 6_000); // 91 s: inside the last tenth of the lifetime
    await client.catalog.skus.get(mock.catalog.ids.sku);
    expect(mock.oauth.tokensIssued).toBe(2);
    expect(mock.requests.filter((r) => r.status === 401)).toHaveLength(0);
  });

  it('a refused client is an AuthenticationError naming the step, without the secret; it is not retried', async () => {
    const { server, mock, clientId } = await start();
    const secret = 'cs_SECRET_wrong_93';
    const client = catalogClient(server.url, clientCredentials({ clientId, clientSecret: secret }));
    const error = await client.catalog.skus.get(mock.catalog.ids.sku).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toContain('client credentials');
    expect((error as AuthenticationError).code).toBe('invalid_client');
    expect((error as AuthenticationError).api).toBe('catalog');
    expect(JSON.stringify(error) + String((error as Error).stack) + (error as Error).message).not.toContain(secret);
    expect(mock.requests.filter((r) => r.path === '/oauth2/token')).toHaveLength(1);
    expect(mock.requests.filter((r) => r.path.startsWith('/skus/'))).toHaveLength(0);
  });

  it('a server echoing the form-encoded secret (in its error and a header) shows neither', async () => {
    const secret = 'cs/SECRET+echo 93';
    // A token endpoint that repeats the request body it got, as some do in error_description.
    const echo = async (_url: string | URL | Request, init?: RequestInit) => {
      const sent = String(init?.body);
      return Response.json({ error: 'invalid_client', error_description: `bad request: ${sent}` }, { status: 401, headers: { 'x-debug-body': sent } });
    };
    const source = clientCredentials({ clientId: 'c1', clientSecret: secret, tokenUrl: 'https://www.example.gr/oauth2/token', fetch: echo as typeof fetch });
    const error = await Promise.resolve()
      .then(() => source())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const shown = `${(error as Error).message} ${JSON.stringify([...(error as AuthenticationError).headers])}`;
    expect(shown).toContain('bad request');
    for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]) expect(shown).not.toContain(form);
  });

  it('tokenUrl follows baseUrl’s rule: https, or http on loopback only', () => {
    const base = { clientId: 'id', clientSecret: 'secret' };
    expect(() => clientCredentials({ ...base, tokenUrl: 'http://www.example.gr/oauth2/token' })).toThrow(/tokenUrl/);
    expect(() => clientCredentials({ ...base, tokenUrl: 'https://www.example.gr/oauth2/token' })).not.toThrow();
    expect(() => clientCredentials({ ...base, tokenUrl: 'http://127.0.0.1:4010/oauth2/token' })).not.toThrow();
    expect(() => clientCredentials({ ...base, clientSecret: '' })).toThrow(/clientSecret/);
  });

  it('derives www.<domain>/oauth2/token from an api.<domain> baseUrl', async () => {
    const seen: string[] = [];
    const fetchSeen = async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      seen.push(url);
      return url.endsWith('/oauth2/token')
        ? Response.json({ access_token: 'a', token_type: 'bearer', expires_in: 60 })
        : Response.json({ sku: { id: 1 } });
    };
    const client = new MarketplaceClient({
      baseUrl: 'https://api.example.gr',
      vendor: 'example',
      fetch: fetchSeen,
      tokens: { catalog: clientCredentials({ clientId: 'id', clientSecret: 'secret', fetch: fetchSeen }) },
    });
    await client.catalog.skus.get(1);
    expect(seen).toEqual(['https://www.example.gr/oauth2/token', 'https://api.example.gr/skus/1']);
  });
});

describe('renewals while onRefresh runs', () => {
  it('a renewal started while the last one is handed to onRefresh stays the one every refused call shares', async () => {
    const answers: ((tokens: Record<string, unknown>) => void)[] = [];
    const used: string[] = [];
    const fetchToken = async (_url: string | URL | Request, init?: RequestInit) => {
      used.push(new URLSearchParams(String(init?.body)).get('refresh_token') ?? '');
      return Response.json(await new Promise<Record<string, unknown>>((resolve) => answers.push(resolve)));
    };
    let saved!: () => void;
    const saving = new Promise<void>((resolve) => (saved = resolve));
    let handedOver = 0;
    const source = userToken({
      clientId: 'id',
      clientSecret: 'secret',
      refreshToken: 'R0',
      accessToken: 'A0',
      tokenUrl: 'https://www.example.gr/oauth2/token',
      fetch: fetchToken,
      onRefresh: () => (++handedOver === 1 ? saving : undefined),
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

    const first = source.refresh('A0');
    await tick();
    answers[0]?.({ access_token: 'A1', refresh_token: 'R1', expires_in: 3600 });
    await tick();
    // A1 is kept while onRefresh still saves it; a call refused with A1 starts the next renewal.
    const second = source.refresh('A1');
    await tick();
    saved();
    await expect(first).resolves.toBe('A1');
    // Another call refused with A1 joins that renewal: R1 is sent once, never twice at a time.
    const third = source.refresh('A1');
    await tick();
    expect(used).toEqual(['R0', 'R1']);
    answers[1]?.({ access_token: 'A2', refresh_token: 'R2', expires_in: 3600 });
    await expect(second).resolves.toBe('A2');
    await expect(third).resolves.toBe('A2');
  });
});

describe('an access token that cannot be sent', () => {
  it.each([
    ['a NUL', 'abc\u0000def-token'],
    ['a character outside Latin-1', 'abc\u20acdef-token'],
    ['a line break', 'abc\r\ndef-token'],
  ])('with %s is refused at the token step, once, without the token in the error', async (_, accessToken) => {
    let requests = 0;
    const fetchToken = async () => {
      requests++;
      return Response.json({ access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
    };
    const source = clientCredentials({ clientId: 'id', clientSecret: 'secret', tokenUrl: 'https://www.example.gr/oauth2/token', fetch: fetchToken });
    const error = await source().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('answered without a usable access token');
    expect(JSON.stringify(error)).not.toContain('def-token');
    expect((error as Error).message).not.toContain('def-token');
    expect(requests).toBe(1);
  });
});

describe('the authorization code flow and userToken', () => {
  it('consent redirect → code exchange → account calls; an expired user token is refreshed once and handed to onRefresh', async () => {
    const { server, mock, clientId, clientSecret, tokenUrl } = await start({ oauth: { userTokenLifetimeSeconds: 60 } });
    const redirectUri = 'https://shop.example/callback';
    const url = authorizationUrl({ clientId, redirectUri, scope: ['public', 'favorites'], state: 'xyz', baseUrl: server.url });
    const back = await consent(url);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    const code = back.searchParams.get('code') as string;

    const first = await exchangeAuthorizationCode({ clientId, clientSecret, redirectUri, code, tokenUrl });
    expect(first).toMatchObject({ token_type: 'bearer', expires_in: 60, refresh_token: expect.any(String) });
    await expect(exchangeAuthorizationCode({ clientId, clientSecret, redirectUri, code, tokenUrl })).rejects.toThrow(/code exchange/);

    const stored: OAuthTokens[] = [];
    const client = new MarketplaceClient({
      baseUrl: server.url,
      vendor: 'marketplace',
      tokens: {
        account: userToken({ clientId, clientSecret, accessToken: first.access_token, refreshToken: first.refresh_token as string, onRefresh: (t) => void stored.push(t) }),
      },
    });
    await client.account.favorites.list();
    expect(mock.oauth.tokensIssued).toBe(1);
    mock.clock.advance(61_000);
    await client.account.favorites.list();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.refresh_token).not.toBe(first.refresh_token);
    // The old refresh token was rotated away.
    const stale = userToken({ clientId, clientSecret, refreshToken: first.refresh_token as string, tokenUrl });
    const error = await stale().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('refresh');
    expect((error as AuthenticationError).api).toBe('account');
    expect((error as Error).message).not.toContain(first.refresh_token as string);
  });

  /** A client on the kit whose user token is refused once the clock moves on, and whose renewal goes to `onRefresh`. */
  async function refreshingClient(onRefresh: (tokens: OAuthTokens) => void | Promise<void>, timeout?: number) {
    const { server, mock, clientId, clientSecret, tokenUrl } = await start({ oauth: { userTokenLifetimeSeconds: 60 } });
    const back = await consent(authorizationUrl({ clientId, redirectUri: 'https://shop.example/cb', scope: ['public', 'favorites'], baseUrl: server.url }));
    const first = await exchangeAuthorizationCode({ clientId, clientSecret, redirectUri: 'https://shop.example/cb', code: back.searchParams.get('code') as string, tokenUrl });
    const account = userToken({ clientId, clientSecret, accessToken: first.access_token, refreshToken: first.refresh_token as string, onRefresh, ...(timeout ? { timeout } : {}) });
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: 'marketplace', maxRetries: 0, tokens: { account } });
    await client.account.favorites.list();
    mock.clock.advance(61_000);
    return { client, mock };
  }

  it('an onRefresh that throws fails the calls that waited for it, with its error; the new token is kept and used', async () => {
    let calls = 0;
    const { client, mock } = await refreshingClient(() => {
      calls++;
      throw new Error('the token store is down');
    });
    await expect(client.account.favorites.list()).rejects.toThrow('the token store is down');
    const issued = mock.oauth.tokensIssued;
    await expect(client.account.favorites.list()).resolves.toBeDefined();
    expect(mock.oauth.tokensIssued).toBe(issued);
    expect(calls).toBe(1);
  });

  it('an onRefresh that never settles fails its calls with TimeoutError and blocks nothing after them', async () => {
    let calls = 0;
    const { client, mock } = await refreshingClient(() => {
      calls++;
      return new Promise<void>(() => {});
    }, 200);
    const error = await client.account.favorites.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/onRefresh did not settle within 200 ms; the new token is kept/);
    const issued = mock.oauth.tokensIssued;
    await expect(client.account.favorites.list()).resolves.toBeDefined();
    expect(mock.oauth.tokensIssued).toBe(issued);
    expect(calls).toBe(1);
  });

  it('an application token is refused by the account API; a denied consent redirects with access_denied', async () => {
    const { server, mock, clientId, clientSecret } = await start();
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: 'marketplace', tokens: { account: clientCredentials({ clientId, clientSecret }) } });
    await expect(client.account.favorites.list()).rejects.toMatchObject({ status: 403 });
    mock.oauth.denyConsent();
    const back = await consent(authorizationUrl({ clientId, redirectUri: 'https://shop.example/cb', scope: 'public', baseUrl: server.url }));
    expect(back.searchParams.get('error')).toBe('access_denied');
  });

  it('authorizationUrl goes to the web host and encodes its parameters', () => {
    const url = new URL(authorizationUrl({ clientId: 'app 1', redirectUri: 'https://shop.example/cb?x=1', scope: ['public', 'notifications'], baseUrl: 'https://api.example.gr' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://www.example.gr/oauth2/authorizations/new');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'app 1',
      redirect_uri: 'https://shop.example/cb?x=1',
      response_type: 'code',
      scope: 'public notifications',
    });
    expect(() => authorizationUrl({ clientId: 'a', redirectUri: 'https://x', scope: 'public' })).toThrow(/baseUrl/);
  });
});
