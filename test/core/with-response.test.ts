import { NotFoundError, RequestValidationError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const ORDERS = `${BASE}/merchants/ecommerce/orders`;
const client = () => makeClient({ maxRetries: 0, cache: false, rateLimit: false });

/** Answers GET order with headers of its own, one of which echoes the token; counts the requests. */
function orderAnswer(headers: Record<string, string> = {}) {
  const seen: string[] = [];
  server.use(
    http.get(`${ORDERS}/:code`, ({ request, params }) => {
      seen.push(request.url);
      return HttpResponse.json(
        { order: { code: params.code, state: 'open' } },
        { headers: { 'x-request-id': 'req-42', 'x-echo': `Bearer ${TOKEN}`, ...headers } },
      );
    }),
  );
  return seen;
}

describe('.withResponse()', () => {
  it('resolves to the data and the answer: status, headers without the token, URL and request id', async () => {
    orderAnswer({ 'x-custom': 'kept' });
    const { data, response } = await client().orders.get('261121-1000001').withResponse();
    expect(data).toEqual({ code: '261121-1000001', state: 'open' });
    expect(response.status).toBe(200);
    expect(response.requestId).toBe('req-42');
    expect(response.url).toBe(`${ORDERS}/261121-1000001`);
    expect(response.headers).toBeInstanceOf(Headers);
    expect(response.headers.get('x-custom')).toBe('kept');
    expect(response.headers.get('x-echo')).toBe('Bearer [redacted]');
    expect(JSON.stringify([...response.headers])).not.toContain(TOKEN);
  });

  it('shares one request between awaiting the call and asking for its response', async () => {
    const seen = orderAnswer();
    const call = client().orders.get('261121-1000001');
    const [order, { data, response }] = await Promise.all([call, call.withResponse()]);
    expect(seen).toHaveLength(1);
    expect(data).toBe(order);
    expect(response.status).toBe(200);
  });

  it('works on methods that hand back part of the answer, and on actions', async () => {
    server.use(
      http.post(`${BASE}/merchants/products/batch/validations`, () =>
        HttpResponse.json({ success: true }, { status: 200, headers: { 'x-request-id': 'req-validate' } }),
      ),
      http.post(`${ORDERS}/:code/set_as_ready`, () => new HttpResponse(null, { status: 204, headers: { 'x-request-id': 'req-ready' } })),
    );
    const validated = await client().products.validateBatch([{ product_id: 'p1', quantity: 1, enabled: true, price: 100 }]).withResponse();
    expect(validated.data.message).toBe('');
    expect(validated.response.requestId).toBe('req-validate');

    const ready = await client().orders.setAsReady('261121-1000001').withResponse();
    expect(ready.data).toBeUndefined();
    expect(ready.response.status).toBe(204);
    expect(ready.response.requestId).toBe('req-ready');
  });

  it('works on catalog calls', async () => {
    server.use(
      http.get(`${BASE}/skus/:id`, ({ params }) =>
        HttpResponse.json({ sku: { id: Number(params.id) } }, { headers: { 'x-request-id': 'req-sku' } }),
      ),
    );
    const { data, response } = await client().catalog.skus.get(7).withResponse();
    expect(data.id).toBe(7);
    expect(response.requestId).toBe('req-sku');
  });

  it('rejects with the call\'s own error, and a bad input sends nothing', async () => {
    const seen = orderAnswer();
    server.use(http.get(`${ORDERS}/missing`, () => HttpResponse.json({ errors: [{ code: 'not_found', messages: ['no'] }] }, { status: 404 })));
    await expect(client().orders.get('missing').withResponse()).rejects.toBeInstanceOf(NotFoundError);

    // A check that fails rejects the promise (it does not throw), with or without .withResponse().
    const bad = client().orders.accept('261121-1000001', { pickup_location: '', pickup_window: 1 });
    await expect(bad.withResponse()).rejects.toBeInstanceOf(RequestValidationError);
    await expect(bad).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
  });
});

describe('page.response', () => {
  it('describes the answer each page came from', async () => {
    server.use(
      http.get(`${BASE}/categories`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        const headers: Record<string, string> = { 'x-request-id': `req-page-${page}` };
        if (page === 1) headers.link = `<${BASE}/categories?page=2>; rel="next"`;
        return HttpResponse.json({ categories: [{ id: page }] }, { headers });
      }),
    );
    const first = await client().catalog.categories.list();
    expect(first.response.status).toBe(200);
    expect(first.response.requestId).toBe('req-page-1');
    expect(first.response.url).toBe(`${BASE}/categories`);
    const second = await first.nextPage();
    expect(second.response.requestId).toBe('req-page-2');
    expect(second.response.url).toBe(`${BASE}/categories?page=2`);
  });
});
