import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RedirectError } from 'emporio';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();
const redirect = (status: number, location: string) => new HttpResponse(null, { status, headers: { location } });

describe('redirects', () => {
  it('remembers a 301 for the client lifetime', async () => {
    let oldHits = 0;
    server.use(
      http.get(`${BASE}/categories/10`, () => {
      oldHits++;
      return redirect(301, '/categories/11');
    }),
      http.get(`${BASE}/categories/11`, () => HttpResponse.json({ category: { id: 11 } })),
    );
    const client = makeClient({ cache: false });
    expect((await client.catalog.categories.get(10)).id).toBe(11);
    expect((await client.catalog.categories.get(10)).id).toBe(11);
    expect(oldHits).toBe(1);
  });

  it('follows 302 and 307 for that request only, keeping method and body', async () => {
    let oldHits = 0;
    let body: unknown;
    server.use(
      http.post(`${BASE}/merchants/products/batch`, () => {
      oldHits++;
      return redirect(307, '/merchants/products/batch-v2');
    }),
      http.post(`${BASE}/merchants/products/batch-v2`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true });
      }),
    );
    const client = makeClient();
    const update = { product_id: 'A1', quantity: 1, enabled: true, price: 100 };
    await client.products.batchUpdate([update]);
    await client.products.batchUpdate([update]);
    expect(oldHits).toBe(2);
    expect(body).toEqual({ data: [update] });
  });

  it('follows a 303 with GET', async () => {
    let method = '';
    server.use(
      http.post(`${BASE}/merchants/ecommerce/orders/A/set_as_ready`, () => redirect(303, '/done')),
      http.all(`${BASE}/done`, ({ request }) => {
        method = request.method;
        return HttpResponse.json({ success: true });
      }),
    );
    await makeClient().orders.setAsReady('A');
    expect(method).toBe('GET');
  });

  it('drops Authorization when the redirect leaves the origin', async () => {
    const auth: Record<string, string | null> = {};
    server.use(
      http.get(`${BASE}/categories/1`, ({ request }) => {
        auth.own = request.headers.get('authorization');
        return redirect(302, 'https://cdn.elsewhere.test/categories/1');
      }),
      http.get('https://cdn.elsewhere.test/categories/1', ({ request }) => {
        auth.other = request.headers.get('authorization');
        return HttpResponse.json({ category: { id: 1 } });
      }),
    );
    await makeClient({ cache: false }).catalog.categories.get(1);
    expect(auth.own).toBe(`Bearer ${TOKEN}`);
    expect(auth.other).toBeNull();
  });

  it('refuses a loop and more than 5 hops with RedirectError', async () => {
    server.use(
      http.get(`${BASE}/categories/1`, () => redirect(302, '/categories/2')),
      http.get(`${BASE}/categories/2`, () => redirect(302, '/categories/1')),
      http.get(`${BASE}/categories/:id`, ({ params }) => redirect(302, `/categories/${Number(params.id) + 1}`)),
    );
    const client = makeClient({ cache: false });
    await expect(client.catalog.categories.get(1)).rejects.toBeInstanceOf(RedirectError);
    const error = await client.catalog.categories.get(100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toContain('more than 5');
  });

  it('allows exactly 5 hops', async () => {
    server.use(
      http.get(`${BASE}/categories/:id`, ({ params }) => {
        const id = Number(params.id);
        return id < 205 ? redirect(307, `/categories/${id + 1}`) : HttpResponse.json({ category: { id } });
      }),
    );
    expect((await makeClient({ cache: false }).catalog.categories.get(200)).id).toBe(205);
  });
});
