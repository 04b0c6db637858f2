import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from 'emporio';
import { BASE, makeClient, useMswServer } from '../helpers/server';

const server = useMswServer();

/** Rejects with a RequestValidationError, and nothing reaches the server. */
async function refused(call: () => Promise<unknown>): Promise<RequestValidationError> {
  let sent = 0;
  server.use(http.all(`${BASE}/*`, () => {
      sent++;
      return HttpResponse.json({});
    }));
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(sent).toBe(0);
  return error as RequestValidationError;
}

describe('readable request validation messages', () => {
  it('says a missing field is required, naming it', async () => {
    const error = await refused(() => makeClient().account.addresses.create({ label: 'Home' } as never));
    expect(error.issues.find((i) => i.path.join('.') === 'first_name')?.message).toBe('is required');
    expect(error.message).toContain('$.first_name: is required');
  });

  it('names an unknown parameter, also for a paginated list', async () => {
    const error = await refused(() => makeClient().catalog.categories.skus(40, { order_dirr: 'asc' } as never));
    expect(error.message).toContain('unknown field: order_dirr');
  });

  it('says which value is wrong and what was expected', async () => {
    const error = await refused(() =>
      makeClient().products.batchUpdate([{ product_id: 'A', quantity: 2, enabled: 'yes' as never, price: 100 }]),
    );
    expect(error.issues).toEqual([{ path: [0, 'enabled'], message: expect.stringContaining('boolean') }]);
  });
});
