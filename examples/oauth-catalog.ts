/**
 * OAuth 2.0 for the catalog and account APIs: an application token (client credentials) for
 * catalog reads, and a user's token (authorization code, then refresh) for their favorites.
 * The token sources fetch, share and renew tokens by themselves; a client only holds them.
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/oauth-catalog.ts
 */
import { pathToFileURL } from 'node:url';
import { authorizationUrl, clientCredentials, exchangeAuthorizationCode, MarketplaceClient, userToken } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

async function main(): Promise<void> {
  // User tokens live 60 s here, so the refresh shows up below.
  const server = await startMockMarketplace({ port: 0, oauth: { userTokenLifetimeSeconds: 60 } });
  try {
    const { mock } = server;
    const { clientId, clientSecret } = mock.oauth;

    // 1. Catalog reads with an application token: fetched on first use, shared by concurrent calls.
    const catalog = new MarketplaceClient({ baseUrl: server.url, vendor: mock.vendor, tokens: { catalog: clientCredentials({ clientId, clientSecret }) } });
    const [sku, categories] = await Promise.all([catalog.catalog.skus.get(mock.catalog.ids.sku), catalog.catalog.categories.list()]);
    console.log(`SKU ${sku.id}: ${sku.name}; ${categories.items.length} categories on the first page`);
    console.log(`application tokens issued: ${mock.oauth.tokensIssued}`);

    // 2. A user's token. Step 1: send the user's browser to the consent page; the service
    //    redirects back to redirect_uri with ?code=… (here fetch plays the browser).
    const redirectUri = 'https://shop.example/oauth/callback';
    const state = crypto.randomUUID();
    const consent = authorizationUrl({ clientId, redirectUri, scope: ['public', 'favorites'], state, baseUrl: server.url });
    const redirect = new URL((await fetch(consent, { redirect: 'manual' })).headers.get('location') ?? '');
    if (redirect.searchParams.get('state') !== state) throw new Error('state mismatch: not our request');
    const code = redirect.searchParams.get('code');
    if (!code) throw new Error(`consent refused: ${redirect.searchParams.get('error')}`);

    // Step 2: the code for a token pair, on your server (the client secret stays there).
    const tokenUrl = `${server.url}/oauth2/token`;
    const pair = await exchangeAuthorizationCode({ clientId, clientSecret, redirectUri, code, tokenUrl });

    // 3. The user's client: renews the access token with the refresh token, and hands every
    //    new pair to onRefresh, where a real application stores it.
    const account = new MarketplaceClient({
      baseUrl: server.url,
      vendor: mock.vendor,
      tokens: {
        account: userToken({
          clientId,
          clientSecret,
          accessToken: pair.access_token,
          refreshToken: pair.refresh_token ?? '',
          onRefresh: (tokens) => console.log(`new user token stored (lives ${tokens.expires_in} s)`),
        }),
      },
    });
    console.log(`favorites: ${(await account.account.favorites.list()).items.length}`);
    mock.clock.advance(61_000); // the user token expires on the service
    console.log(`favorites after the token expired: ${(await account.account.favorites.list()).items.length}`);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
