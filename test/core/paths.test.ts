import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from 'emporio';
import { BASE, makeClient, useMswServer } from '../helpers/server';

const server = useMswServer();

describe('path parameters', () => {
  it.each([
    '',
    '../admin',
    '..',
    'a/b',
    'a\\b',
    '%2F',
    'a%2e%2e',
    'code with space',
    'tab\there',
    'nul\u0000',
    'del\u007f',
    'line\nbreak',
    'x'.repeat(300),
    'lone\ud800surrogate',
  ])('refuses %j before sending', async (code) => {
    let sent = 0;
    server.use(http.all(`${BASE}/*`, () => {
      sent++;
      return HttpResponse.json({});
    }));
    const error = await makeClient().orders.get(code).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(sent).toBe(0);
  });

  it('refuses bad ids in action paths too, nothing sent', async () => {
    let sent = 0;
    server.use(http.all(`${BASE}/*`, () => {
      sent++;
      return HttpResponse.json({});
    }));
    await expect(makeClient().orders.setAsReady('../x')).rejects.toBeInstanceOf(RequestValidationError);
    await expect(makeClient().catalog.categories.get(-1)).rejects.toBeInstanceOf(RequestValidationError);
    await expect(makeClient().catalog.categories.get(1.5)).rejects.toBeInstanceOf(RequestValidationError);
    expect(sent).toBe(0);
  });

  it.each(['DEMO-OPEN', '191128-1234567', 'DEMO-INVOICE39A'])('accepts %s', async (code) => {
    let path = '';
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/:code`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({ order: { code } });
      }),
    );
    expect((await makeClient().orders.get(code)).code).toBe(code);
    expect(path).toBe(`/merchants/ecommerce/orders/${code}`);
  });

  it.each([
    ['A?1', 'A%3F1'],
    ['A#1', 'A%231'],
    ['x&y=z', 'x%26y%3Dz'],
    ['Παραγγελία-7', encodeURIComponent('Παραγγελία-7')],
    ["it's_(1)~*!", "it's_(1)~*!"],
  ])('percent-encodes %s as %s, and leaves the characters encodeURIComponent keeps', async (code, encoded) => {
    let path = '';
    server.use(
      http.get(`${BASE}/merchants/ecommerce/orders/*`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({ order: { code } });
      }),
    );
    await makeClient().orders.get(code);
    expect(path).toBe(`/merchants/ecommerce/orders/${encoded}`);
  });
});
