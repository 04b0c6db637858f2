import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();

describe('logger and hooks', () => {
  it('logs request, retry, wait and cache lines without any token', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/categories/:id`, ({ request }) => {
        calls++;
        if (calls === 1) return HttpResponse.json({ errors: [{ code: 'x', messages: ['busy'] }] }, { status: 503 });
        if (request.headers.get('if-none-match') === '"e"') return new HttpResponse(null, { status: 304 });
        return HttpResponse.json({ category: { id: 1 } }, { headers: { etag: '"e"' } });
      }),
    );
    const { lines, logger } = recordingLogger();
    const client = makeClient({ logger, maxRetries: 1 });
    await client.catalog.categories.get(1);
    await client.catalog.categories.get(1);
    expect(lines.some((l) => l.startsWith('request GET'))).toBe(true);
    expect(lines.some((l) => l.startsWith('retry 1/1'))).toBe(true);
    expect(lines.some((l) => l.startsWith('cache hit'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(TOKEN);
  });

  it('gives hooks the exchange with Authorization redacted', async () => {
    server.use(http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => HttpResponse.json({ order: { code: 'A' } })));
    const requests: Record<string, string>[] = [];
    const statuses: number[] = [];
    const client = makeClient({
      hooks: {
        onRequest: (e) => requests.push(e.headers),
        onResponse: (e) => statuses.push(e.status),
      },
    });
    await client.orders.get('A');
    expect(requests[0]?.authorization).toBe('[redacted]');
    expect(JSON.stringify(requests)).not.toContain(TOKEN);
    expect(statuses).toEqual([200]);
  });

  it("gives onRequest the try's number: 0, then 1 and 2 for the retries, the same number on each redirect hop", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/categories/:id`, () => {
        calls++;
        if (calls <= 2) return HttpResponse.json({ errors: [{ code: 'x', messages: ['busy'] }] }, { status: 503 });
        return new HttpResponse(null, { status: 302, headers: { location: `${BASE}/moved/1` } });
      }),
      http.get(`${BASE}/moved/:id`, () => HttpResponse.json({ category: { id: 1 } })),
    );
    const seen: [string, number][] = [];
    const client = makeClient({ maxRetries: 2, hooks: { onRequest: (e) => seen.push([new URL(e.url).pathname, e.attempt]) } });
    await client.catalog.categories.get(1);
    expect(seen).toEqual([
      ['/categories/1', 0],
      ['/categories/1', 1],
      ['/categories/1', 2],
      ['/moved/1', 2],
    ]);
  });
});
