/**
 * `npm run api-map -- --check` (a CI step): api.md's line for each method is compared whole with the
 * source's (parameters, answer, requests), so a stale line or a parameter left out fails the check.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiMap, checkApiMap, generateApiMap } from '../../scripts/api-map.mjs';

let generated: ApiMap;
beforeAll(() => {
  generated = generateApiMap();
}, 120_000);

const line = (name: string) => generated.lines.get(name) ?? '';
const replaced = (text: string, from: string, to: string) => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

describe('the endpoint map', () => {
  it('the committed api.md is the source’s, and every request is resolved', () => {
    expect(generated.problems).toEqual([]);
    expect(checkApiMap(readFileSync(new URL('../../api.md', import.meta.url), 'utf8'), generated)).toEqual([]);
  });

  it('writes every parameter, options with members of their own included', () => {
    expect(line('client.orders.get')).toMatch(/^- `client\.orders\.get\(code, \{ actionOptions \}\?\)` → `Order` · `GET \/merchants\/ecommerce\/orders\/\{code\}`$/);
    expect(line('client.orders.reject')).toContain('client.orders.reject(code, params, { order, rejectOptions }?)');
    // A plain RequestOptions last argument is left out.
    expect(line('client.orders.accept')).toContain('client.orders.accept(code, params)`');
  });

  it('writes a request chosen by the arguments as its alternatives, each resolved', () => {
    expect(line('client.legacyV2.shops')).toBe('- `client.legacyV2.shops(letter?)` → `LegacyShopsResult` · `GET /json/shops/` or `GET /json/shops/{letter}/`');
    expect(line('client.legacyV2.subcategories')).toContain('`GET /json/subcategories/` or `GET /json/subcategories/{catId}/`');
    expect(line('client.legacyV2.lookupSku')).toContain(
      '`GET /json/sku/lookup/shop/{shop_id}/sku/{sku}/` or `GET /json/sku/lookup/pn/{pn}/` or `GET /json/sku/lookup/barcode/{barcode}/`',
    );
    for (const text of generated.lines.values()) expect(text).not.toMatch(/\{…\}|`\w+ \{/);
  });

  it('fails on a stale line, a parameter left out, a missing line and a line for no method', () => {
    const stale = replaced(generated.text, '`GET /json/shops/` or `GET /json/shops/{letter}/`', '`{…} {path}` + `GET {where}`');
    expect(checkApiMap(stale, generated)).toEqual([expect.stringMatching(/^api\.md's line for client\.legacyV2\.shops differs from the source/)]);

    const withoutParameter = replaced(generated.text, 'client.orders.get(code, { actionOptions }?)', 'client.orders.get(code)');
    const [problem] = checkApiMap(withoutParameter, generated);
    expect(problem).toContain("api.md's line for client.orders.get differs from the source");
    expect(problem).toContain('source: - `client.orders.get(code, { actionOptions }?)`');

    const withoutLine = replaced(generated.text, `${line('client.orders.get')}\n`, '');
    expect(checkApiMap(withoutLine, generated)).toEqual([expect.stringMatching(/^api\.md has no line for client\.orders\.get/)]);

    const extra = `${generated.text}- \`client.orders.teleport(code)\` → \`Order[]\` · \`GET /merchants/ecommerce/orders\`\n`;
    expect(checkApiMap(extra, generated)).toEqual(['api.md has a line for client.orders.teleport, which is no public method']);
  });
});
