import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SuccessAnswer } from '../../src/schemas/common.js';
import { ProductUpdate, ValidateBatchAnswer } from '../../src/schemas/products.js';

const recording = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/recorded/${name}`, import.meta.url), 'utf8')) as {
    request: { params: Record<string, unknown> };
    response: { body: unknown };
  };

/** The recordings write request keys as `:name`; strip that to get the wire body. */
const unprefix = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(unprefix)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/^:/, ''), unprefix(v)]))
      : value;

describe('Products API schemas', () => {
  it('the recorded batch payload is valid, entry by entry', () => {
    const { data } = unprefix(recording('merchants_products_batch.json').request.params) as { data: unknown[] };
    expect(data).toHaveLength(2);
    for (const update of data) expect(ProductUpdate.parse(update)).toEqual(update);
    expect(SuccessAnswer.parse(recording('merchants_products_batch.json').response.body)).toEqual({ success: true });
  });

  it('the recorded validation answer fits ValidateBatchAnswer', () => {
    const body = recording('merchants_products_validate_batch_payload.json').response.body;
    expect(ValidateBatchAnswer.parse(body).message).toBe('All validations passed successfully.');
    expect(ValidateBatchAnswer.safeParse({ success: true }).success).toBe(true); // tolerant: a later version may drop it
    expect(ValidateBatchAnswer.safeParse({ message: 5 }).error?.issues[0]?.path).toEqual(['message']);
  });

  it('refuses bad updates with the field path', () => {
    const ok = { product_id: 'ABC123', quantity: 10, enabled: true, price: 2999 };
    const path = (value: unknown) => ProductUpdate.safeParse(value).error?.issues.map((i) => i.path);
    expect(path({ ...ok, product_id: '' })).toEqual([['product_id']]);
    expect(path({ ...ok, quantity: -1 })).toEqual([['quantity']]);
    expect(path({ ...ok, price: 29.99 })).toEqual([['price']]);
    expect(path({ ...ok, enabled: 'yes' })).toEqual([['enabled']]);
    expect(path({ ...ok, prise: 1 })).toEqual([[]]);
    const { quantity: _, ...missing } = ok;
    expect(path(missing)).toEqual([['quantity']]);
    expect(path({ ...ok, variations: [{ variation_id: 'A', quantity: 1, enabled: 'no', price: 1 }] })).toEqual([
      ['variations', 0, 'enabled'],
    ]);
  });
});
