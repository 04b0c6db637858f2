import { MarketplaceClient, type SuccessAnswer } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';

const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');

describe('orders.uploadInvoice resolves to the answer, typed', () => {
  it('{ success: true } from the mock, as SuccessAnswer | undefined', async () => {
    const mock = createMockMarketplace();
    try {
      const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, tokens: mock.tokens, fetch: mock.fetch });
      const { code } = mock.orders.create({ invoice: true });
      const answer = await client.orders.uploadInvoice(code, PDF);
      expectTypeOf(answer).toEqualTypeOf<SuccessAnswer | undefined>();
      expect(answer).toEqual({ success: true });
    } finally {
      mock.close();
    }
  });
});
