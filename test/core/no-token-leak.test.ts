import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const LEGACY = 'https://legacy.marketplace.test';
const LEGACY_TOKEN = 'legacy_SECRET_a81b';

/** Everything an error exposes: message, toString, stack, own fields and the cause chain. */
function everything(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, String(current), current.stack ?? '');
      parts.push(JSON.stringify({ ...current }, (_k, v) => (v instanceof Headers ? Object.fromEntries(v) : v)));
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join('\n');
}

describe('no token in errors or logs', () => {
  it('keeps every test token out of every error and log line, under every kind of failure', async () => {
    server.use(
      // The server echoes the token back in its error body: the SDK must still not show it.
      http.get(`${BASE}/merchants/ecommerce/orders/ECHO`, ({ request }) =>
        HttpResponse.json({ errors: [{ code: 'bad', messages: [`bad token ${request.headers.get('authorization')}`] }] }, { status: 401 }),
      ),
      http.get(`${BASE}/merchants/ecommerce/orders/HTML`, ({ request }) =>
        new HttpResponse(`<h1>502</h1> ${request.headers.get('authorization')}`, { status: 502 }),
      ),
      http.get(`${BASE}/merchants/ecommerce/orders/DROP`, () => HttpResponse.error()),
      http.get(`${BASE}/merchants/ecommerce/orders/SLOW`, async () => {
        await delay(1_000);
        return HttpResponse.json({});
      }),
      http.get(`${BASE}/merchants/ecommerce/orders/JUNK`, () => new HttpResponse('{nope', { status: 200 })),
      http.get(`${BASE}/merchants/ecommerce/orders/SHAPE`, () => HttpResponse.json({ order: 'x' })),
      http.get(`${BASE}/categories/:id`, () => HttpResponse.json({ message: 'Rate limit exceeded' }, { status: 403 })),
      http.get(`${LEGACY}/json/sku/:id/`, ({ request }) =>
        HttpResponse.json({ errors: [{ code: 'x', messages: [request.url] }] }, { status: 500 }),
      ),
    );
    const { lines, logger } = recordingLogger();
    const client = makeClient({
      logger,
      maxRetries: 1,
      timeout: 50,
      legacyBaseUrl: LEGACY,
      tokens: { legacyV2: LEGACY_TOKEN },
    });
    const failures = await Promise.all([
      ...['ECHO', 'HTML', 'DROP', 'SLOW', 'JUNK', 'SHAPE', '../x'].map((code) => client.orders.get(code).catch((e: unknown) => e)),
      client.catalog.categories.get(1, {}, { maxRetries: 0 }).catch((e: unknown) => e),
      client.legacyV2.sku(123).catch((e: unknown) => e),
    ]);
    expect(failures.every((f) => f instanceof Error)).toBe(true);
    const text = failures.map(everything).join('\n') + lines.join('\n');
    expect(text.length).toBeGreaterThan(500);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(LEGACY_TOKEN);
    expect(text).toContain('[redacted]');
  });
});
