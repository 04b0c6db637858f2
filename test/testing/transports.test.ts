/**
 * The three ways to reach the mock (mock.fetch, msw handlers, the loopback server), fault
 * injection through each, and the merchant rate limit.
 */
import { createMockMarketplace, type MockMarketplace, startMockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonHeaders, merchantHeaders } from './helpers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newMock(options: Parameters<typeof createMockMarketplace>[0] = {}) {
  const mock = createMockMarketplace(options);
  cleanups.push(() => mock.close());
  return mock;
}

const acceptBody = JSON.stringify({ pickup_location: 'LOC-1', pickup_window: 1 });

describe('mock.fetch', () => {
  it('takes a Request object or (input, init) like fetch', async () => {
    const mock = newMock();
    const url = `${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`;
    const viaRequest = await mock.fetch(new Request(url, { headers: merchantHeaders() }));
    const viaInit = await mock.fetch(new URL(url), { headers: merchantHeaders() });
    const viaString = await mock.fetch(url, { headers: merchantHeaders() });
    for (const answer of [viaRequest, viaInit, viaString]) {
      expect(answer.status).toBe(200);
      expect((await answer.json()).order.code).toBe('DEMO-OPEN');
    }
  });

  it('ignores the host: any origin reaches the mock', async () => {
    const mock = newMock();
    const answer = await mock.fetch('http://localhost:1/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() });
    expect(answer.status).toBe(200);
  });

  it('rejects with the signal reason when aborted before sending', async () => {
    const mock = newMock();
    const reason = new DOMException('stop', 'AbortError');
    await expect(
      mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders(), signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
  });
});

describe('startMockMarketplace (loopback)', () => {
  it('serves the same protocol over a real socket, with keep-alive', async () => {
    const running = await startMockMarketplace({ port: 0 });
    cleanups.push(running.close);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.mock.baseUrl).toBe(running.url);
    const order = running.mock.orders.create();
    const accepted = await fetch(`${running.url}/merchants/ecommerce/orders/${order.code}/accept`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: acceptBody,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('content-length')).toBe('16');
    const again = await fetch(`${running.url}/merchants/ecommerce/orders/${order.code}/accept`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: acceptBody,
    });
    expect(await again.json()).toEqual({ errors: [{ code: 'order_status', messages: ['Order already accepted.'] }] });
    const unauthorized = await fetch(`${running.url}/merchants/ecommerce/orders/${order.code}`, {
      headers: merchantHeaders('nope'),
    });
    expect(unauthorized.status).toBe(401);
  });

  it('takes multipart uploads over the socket and serves the file back', async () => {
    const running = await startMockMarketplace({ port: 0 });
    cleanups.push(running.close);
    const form = new FormData();
    form.append('invoice_file', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])]), 'receipt.jpg');
    const { code } = running.mock.orders.create();
    const answer = await fetch(`${running.url}/merchants/ecommerce/orders/${code}/invoices`, {
      method: 'POST',
      headers: merchantHeaders(),
      body: form,
    });
    expect(answer.status).toBe(200);
    const url = running.mock.orders.get(code)?.uploaded_invoice_file as string;
    expect(url.startsWith(`${running.url}/__mock/invoices/${code}/1/`)).toBe(true);
    expect((await fetch(url)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('drops the connection for a drop fault (fetch fails), and still applied the effect in phase after', async () => {
    const running = await startMockMarketplace({ port: 0, faults: { rate: 1, kinds: ['drop'], phase: 'after' } });
    cleanups.push(running.close);
    const order = running.mock.orders.create();
    await expect(
      fetch(`${running.url}/merchants/ecommerce/orders/${order.code}/accept`, { method: 'POST', headers: jsonHeaders(), body: acceptBody }),
    ).rejects.toThrow(TypeError);
    expect(running.mock.orders.get(order.code)?.state).toBe('accepted');
    expect(running.mock.faults.log).toEqual([
      { kind: 'drop', phase: 'after', status: expect.any(Number), method: 'POST', path: `/merchants/ecommerce/orders/${order.code}/accept` },
    ]);
  });

  it('holds the answer for a timeout fault until the client gives up', async () => {
    const running = await startMockMarketplace({ port: 0, faults: { rate: 1, kinds: ['timeout'], delayMs: 60_000 } });
    cleanups.push(running.close);
    const started = Date.now();
    await expect(
      fetch(`${running.url}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders(), signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('msw handlers', () => {
  it('turn a drop fault into a network error and a 5xx into the error body', async () => {
    const mock = newMock({ baseUrl: 'https://faulty.test', faults: { rate: 1, kinds: ['drop'] } });
    const server = setupServer(...mswHandlers(mock));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());
    await expect(fetch('https://faulty.test/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() })).rejects.toThrow(
      TypeError,
    );
    mock.setFaults({ rate: 1, kinds: ['5xx'] });
    const answer = await fetch('https://faulty.test/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() });
    expect([500, 502, 503]).toContain(answer.status);
    expect((await answer.json()).errors[0].code).toBe('internal_error');
    mock.setFaults(undefined);
    expect((await fetch('https://faulty.test/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() })).status).toBe(200);
  });

  it('honour a baseUrl with a path prefix', async () => {
    const mock = newMock({ baseUrl: 'https://gateway.test/marketplace/v3' });
    const server = setupServer(...mswHandlers(mock));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());
    const answer = await fetch('https://gateway.test/marketplace/v3/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() });
    expect(answer.status).toBe(200);
  });
});

describe('mock.handlers (the form API.md shows)', () => {
  it('serve the mock through msw with setupServer(...mock.handlers), the same list each read', async () => {
    const mock = newMock({ baseUrl: 'https://handlers.test' });
    expect(mock.handlers).toBe(mock.handlers);
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());
    const answer = await fetch('https://handlers.test/merchants/ecommerce/orders/DEMO-OPEN', { headers: merchantHeaders() });
    expect(answer.status).toBe(200);
    expect((await answer.json()).order.code).toBe('DEMO-OPEN');
  });
});

describe('faults', () => {
  async function run(seed: number) {
    const mock = newMock({ faults: { rate: 0.3, seed, kinds: ['5xx', 'drop'], phase: 'both' } });
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i++) {
      try {
        const answer = await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders() });
        outcomes.push(String(answer.status));
      } catch (error) {
        outcomes.push((error as Error).name);
      }
    }
    return { outcomes, log: mock.faults.log };
  }

  it('repeat exactly with the same seed and differ with another', async () => {
    const first = await run(42);
    const second = await run(42);
    const other = await run(7);
    expect(second).toEqual(first);
    expect(other.outcomes).not.toEqual(first.outcomes);
    expect(first.outcomes).toContain('TypeError');
    expect(first.outcomes.some((o) => o.startsWith('50'))).toBe(true);
    expect(first.outcomes).toContain('200');
    const failed = first.outcomes.filter((o) => o !== '200').length;
    expect(failed).toBe(first.log.length);
  });

  it('apply an order action at most once: before-phase faults leave no effect, after-phase keep exactly one', async () => {
    const before = newMock({ faults: { rate: 1, kinds: ['5xx'], phase: 'before' } });
    const a = before.orders.create();
    const refused = await before.fetch(`${before.baseUrl}/merchants/ecommerce/orders/${a.code}/accept`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: acceptBody,
    });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(before.orders.get(a.code)?.state).toBe('open');

    const after = newMock({ faults: { rate: 1, kinds: ['5xx', 'drop'], phase: 'after' } });
    const b = after.orders.create();
    for (let i = 0; i < 3; i++) {
      await after
        .fetch(`${after.baseUrl}/merchants/ecommerce/orders/${b.code}/accept`, { method: 'POST', headers: jsonHeaders(), body: acceptBody })
        .catch(() => undefined);
    }
    expect(after.orders.get(b.code)?.state).toBe('accepted');
    expect(after.events.filter((e) => e.order.code === b.code && e.changes?.state)).toHaveLength(1);
  });

  it('a timeout fault respects the caller signal in mock.fetch', async () => {
    const mock = newMock({ faults: { rate: 1, kinds: ['timeout'], delayMs: 60_000 } });
    await expect(
      mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders(), signal: AbortSignal.timeout(50) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('a short timeout fault delays, then answers', async () => {
    const mock = newMock({ faults: { rate: 1, kinds: ['timeout'], delayMs: 50 } });
    const started = Date.now();
    const answer = await mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders() });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe('merchant rate limit (off by default)', () => {
  it('adds X-RateLimit-* headers and answers 403 { message } when the budget is spent', async () => {
    let now = Date.UTC(2026, 3, 1, 12, 0, 0);
    const mock: MockMarketplace = newMock({ clock: () => now, merchantRateLimit: { perMinute: 2, windowMs: 1_000 } });
    const get = () => mock.fetch(`${mock.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders() });
    const first = await get();
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(now / 1000 + 1));
    await get();
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(Object.keys(await refused.json())).toEqual(['message']);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    now += 1_000;
    expect((await get()).status).toBe(200);
    expect(mock.rateLimitRefusals).toBe(1);
    const plain = newMock();
    const answer = await plain.fetch(`${plain.baseUrl}/merchants/ecommerce/orders/DEMO-OPEN`, { headers: merchantHeaders() });
    expect(answer.headers.has('x-ratelimit-limit')).toBe(false);
  });
});
