import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, makeClient, recordingLogger, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const BATCH = `${BASE}/merchants/products/batch`;

/** Counts the batch requests that reach the wire. */
function batchEndpoint() {
  const sent = { requests: 0 };
  server.use(
    http.post(BATCH, () => {
      sent.requests++;
      return HttpResponse.json({ success: true });
    }),
  );
  return sent;
}

// Prices in euros where the Products API wants integer cents: every row is refused locally.
const inEuros = (n: number) => ({ product_id: `P-${n}`, quantity: 1, enabled: true, price: 12.5 + n });

describe('products.updateMany says when nothing could be sent', () => {
  afterEach(() => vi.restoreAllMocks());

  it('every update invalid: one logger.warn line with the count and the first error, nothing sent', async () => {
    const sent = batchEndpoint();
    const { lines, logger } = recordingLogger();
    const report = await makeClient({ logger }).products.updateMany(Array.from({ length: 1200 }, (_, n) => inEuros(n)));

    expect(sent.requests).toBe(0);
    expect(report.applied).toEqual([]);
    expect(report.failed).toHaveLength(1200);
    const warnings = lines.filter((line) => line.includes('updateMany'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('all 1200 updates failed validation');
    expect(warnings[0]).toContain('price');
    expect(warnings[0]).toContain('cents');
  });

  it('without a logger the warning goes to console.warn', async () => {
    batchEndpoint();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await makeClient().products.updateMany([inEuros(1)]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^emporio: products\.updateMany: all 1 updates failed validation/);
  });

  it('a run with one valid update, or with nothing at all, warns of nothing', async () => {
    const sent = batchEndpoint();
    const { lines, logger } = recordingLogger();
    const client = makeClient({ logger });
    const report = await client.products.updateMany([inEuros(1), { product_id: 'P-ok', quantity: 1, enabled: true, price: 1250 }]);
    await client.products.updateMany([]);

    expect(sent.requests).toBe(1);
    expect(report.applied).toEqual(['P-ok']);
    expect(lines.filter((line) => line.includes('updateMany'))).toEqual([]);
  });
});
