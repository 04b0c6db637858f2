/** Credential headers of an answer (a web host's Set-Cookie) never reach users whole, on errors or on responses. */
import { http, HttpResponse } from 'msw';
import { expect, it } from 'vitest';
import { NotFoundError } from 'emporio';
import { BASE, makeClient, useMswServer } from '../helpers/server';

const server = useMswServer();
const ORDER_URL = `${BASE}/merchants/ecommerce/orders/:code`;
const cookie = 'session=s3cr3t-session; Path=/; HttpOnly';

it('an error keeps the answer headers with Set-Cookie redacted', async () => {
  server.use(http.get(ORDER_URL, () => HttpResponse.json({ code: 'not_found' }, { status: 404, headers: { 'set-cookie': cookie, 'x-request-id': 'r-1' } })));
  const error = await makeClient({ maxRetries: 0 }).orders.get('A-1').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  const headers = (error as NotFoundError).headers;
  expect(headers.get('set-cookie')).toBe('[redacted]');
  expect(headers.get('x-request-id')).toBe('r-1');
  expect(JSON.stringify([...headers])).not.toContain('s3cr3t');
});

it('withResponse() shows the answer headers with Set-Cookie redacted', async () => {
  server.use(http.get(ORDER_URL, () => HttpResponse.json({ order: { code: 'A-1' } }, { headers: { 'set-cookie': cookie } })));
  const { response } = await makeClient({ maxRetries: 0, cache: false }).orders.get('A-1').withResponse();
  expect(response.headers.get('set-cookie')).toBe('[redacted]');
});
