/**
 * Details of the real service's answers the mock now copies: `Cache-Control: no-cache` on merchant
 * answers, the vendor's own hosts in the sandbox data's file URLs, and the FBS wording of a
 * refused reschedule for the sandbox's DEMO-FBS.
 */
import { MarketplaceClient, UnprocessableEntityError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';

const mocks: MockMarketplace[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});

function kit(vendor?: string) {
  const mock = createMockMarketplace(vendor === undefined ? {} : { vendor });
  mocks.push(mock);
  const client = new MarketplaceClient({
    baseUrl: mock.baseUrl,
    vendor: mock.vendor,
    tokens: { orders: mock.tokens.orders, products: mock.tokens.products },
    fetch: mock.fetch,
    maxRetries: 0,
  });
  return { mock, client };
}

/** Every http(s) URL in a JSON value. */
const urlsIn = (value: unknown): string[] => JSON.stringify(value).match(/https?:\/\/[^"\\]+/g) ?? [];

describe('the mock as the recordings show the service', () => {
  it('merchant answers carry Cache-Control: no-cache, errors included', async () => {
    const { client } = kit();
    const { response } = await client.orders.get('DEMO-OPEN').withResponse();
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const error = await client.orders.get('NO-SUCH-ORDER').catch((e: unknown) => e);
    expect((error as { headers: Headers }).headers.get('cache-control')).toBe('no-cache');
  });

  it("started with a vendor, the sandbox's voucher, invoice and return photo URLs are on the vendor's hosts", async () => {
    const { client } = kit('acme');
    const urls: string[] = [];
    for (const code of ['DEMO-ACCEPTED', 'DEMO-FBS', 'DEMO-FBS-DISPATCHED', 'DEMO-INVOICE', 'DEMO-INVOICE-VIES', 'DEMO-RETURN', 'DEMO-REPLACEMENT', 'DEMO-FEES']) {
      urls.push(...urlsIn(await client.orders.get(code)));
    }
    urls.push(...urlsIn(await client.returns.get('DEMO-RETURN')));
    const files = urls.filter((url) => /\.(pdf|jpe?g|png)$/i.test(url));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const url of files) expect(new URL(url).hostname, url).toMatch(/^(acme\.example|cdn\.acme\.example)$/);
    expect(urls.join(' ')).not.toMatch(/marketplace\.example|scdn\.gr|example\.gr/);
  });

  it('with the default vendor the sandbox data stays as recorded', async () => {
    const { client } = kit();
    const photos = (await client.returns.get('DEMO-RETURN')).return_line_items?.[0]?.user_photos ?? [];
    expect(photos[0]).toBe('https://demo.cdn.example.gr/ds/ecommerce/return_request_line_item_images/demo-img-1.jpeg');
  });

  it('a reschedule of the sandbox FBS order is refused in the words of the service\'s page', async () => {
    for (const [vendor, brand] of [
      [undefined, 'Marketplace'],
      ['acme', 'Acme'],
    ] as const) {
      const { client } = kit(vendor);
      const error = await client.orders.reschedulePickup('DEMO-FBS', { reschedule_date: '2030-01-02' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect((error as UnprocessableEntityError).errors).toEqual([
        { code: 'order_status', messages: [`Order rescheduling is not supported for "Fulfilled by ${brand}" orders.`] },
      ]);
    }
  });
});
