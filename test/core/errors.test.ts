import { readFileSync } from 'node:fs';
import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  EmporioError,
  InternalServerError,
  NotFoundError,
  NotImplementedError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
} from 'emporio';
import { BASE, makeClient, useMswServer } from '../helpers/server';

const server = useMswServer();
const ORDER_URL = `${BASE}/merchants/ecommerce/orders/:code`;
const errorBody = (code: string, message: string) => ({ errors: [{ code, messages: [message] }] });

function answer(status: number, body: string | Record<string, unknown>, headers: Record<string, string> = {}) {
  server.use(
    http.get(ORDER_URL, () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers: { 'content-type': 'text/html', ...headers } })
        : HttpResponse.json(body, { status, headers }),
    ),
  );
}

const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('resolved'), (e: unknown) => e);
const client = () => makeClient({ maxRetries: 0 });

describe('error mapping', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [404, NotFoundError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
    [501, NotImplementedError],
    [409, ApiError],
  ])('%i maps to %o with code, errors, message and request id', async (status, ErrorClass) => {
    answer(status, errorBody('order_error', 'Order not found'), { 'x-request-id': 'req-42' });
    const error = (await failure(client().orders.get('DEMO-X'))) as ApiError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(EmporioError);
    expect(error.status).toBe(status);
    expect(error.code).toBe('order_error');
    expect(error.errors).toEqual([{ code: 'order_error', messages: ['Order not found'] }]);
    expect(error.message).toContain('Order not found');
    expect(error.requestId).toBe('req-42');
    expect(error.method).toBe('GET');
    expect(error.url).toBe(`${BASE}/merchants/ecommerce/orders/DEMO-X`);
  });

  it('a 403 with the rate-limit {message} body is a RateLimitError', async () => {
    answer(403, { message: 'Rate limit exceeded' }, { 'x-ratelimit-reset': '1900000000' });
    const error = (await failure(client().orders.get('A'))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('Rate limit exceeded');
    expect(error.reset).toBe(1900000000);
  });

  it('a 403 with the {errors} body is a PermissionDeniedError, not a rate limit', async () => {
    answer(403, errorBody('forbidden', 'Not allowed'));
    const error = await failure(client().orders.get('A'));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).not.toBeInstanceOf(RateLimitError);
  });

  it('an HTML 502 from a proxy still gives the right class and a short excerpt', async () => {
    answer(502, '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>');
    const error = (await failure(client().orders.get('A'))) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toContain('502 Bad Gateway');
    expect(error.message).not.toContain('<html>');
    expect(error.code).toBeUndefined();
  });

  it('an empty error body gives the class from the status', async () => {
    server.use(http.get(ORDER_URL, () => new HttpResponse(null, { status: 404 })));
    const error = await failure(client().orders.get('A'));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('a 2xx body that is not JSON (as the real service once sent) is a ResponseValidationError', async () => {
    const recorded = JSON.parse(
      readFileSync(new URL('../fixtures/recorded/merchants_ecommerce_orders_demo_fees.json', import.meta.url), 'utf8'),
    );
    expect(recorded.response.body_is_json).toBe(false);
    server.use(
      http.get(ORDER_URL, () =>
        new HttpResponse(recorded.response.body, { status: 200, headers: { 'content-type': 'application/json' } }),
      ),
    );
    const error = (await failure(client().orders.get('DEMO-ACCEPTED'))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect(error.status).toBe(200);
  });

  it('a body of the wrong shape resolves as sent; with strict: true it is a ResponseValidationError with the path', async () => {
    answer(200, { order: { code: 'A', customer: 'not an object' } });
    expect((await client().orders.get('A')).customer).toBe('not an object');
    const error = (await failure(makeClient({ maxRetries: 0, strict: true }).orders.get('A'))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues[0]?.path).toEqual(['order', 'customer']);
  });

  it('a missing root key is a ResponseValidationError', async () => {
    answer(200, { success: true });
    expect(await failure(client().orders.get('A'))).toBeInstanceOf(ResponseValidationError);
  });

  it('a network failure is a ConnectionError', async () => {
    server.use(http.get(ORDER_URL, () => HttpResponse.error()));
    const error = (await failure(client().orders.get('A'))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.url).toBe(`${BASE}/merchants/ecommerce/orders/A`);
  });

  it('a slow answer is a TimeoutError', async () => {
    server.use(
      http.get(ORDER_URL, async () => {
        await delay(2_000);
        return HttpResponse.json({ order: { code: 'A' } });
      }),
    );
    const error = await failure(makeClient({ maxRetries: 0, timeout: 50 }).orders.get('A'));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("an abort rejects with the caller's reason, unchanged", async () => {
    server.use(
      http.get(ORDER_URL, async () => {
        await delay(2_000);
        return HttpResponse.json({ order: { code: 'A' } });
      }),
    );
    const controller = new AbortController();
    const reason = new Error('user went away');
    setTimeout(() => controller.abort(reason), 30);
    expect(await failure(client().orders.get('A', { signal: controller.signal }))).toBe(reason);

    const aborted = new AbortController();
    aborted.abort();
    const error = (await failure(client().orders.get('A', { signal: aborted.signal }))) as Error;
    expect(error.name).toBe('AbortError');
  });

  it('an empty 2xx answer resolves to undefined', async () => {
    server.use(http.post(`${ORDER_URL}/set_as_ready`, () => new HttpResponse(null, { status: 204 })));
    await expect(client().orders.setAsReady('A')).resolves.toBeUndefined();
  });
});
