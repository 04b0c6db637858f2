/** Paginated catalog listings: Link rel=next iteration, pages(), loops, concurrency, prefetch. */
import { type Page, ResponseValidationError } from 'emporio';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, useMswServer } from '../../helpers/server.js';
import { capture, rejection } from './helpers.js';

const server = useMswServer();
const client = (prefetch = false) => ({ c: makeClient({ maxRetries: 0, rateLimit: false, cache: false }), prefetch });
const ROUTE = `${BASE}/categories/40/skus`;

/** A listing of `pages` pages of SKUs; `items(n)` decides what page n holds, `next(n)` its next link. */
function listing(pages: number, options: { items?: (n: number) => number[]; next?: (n: number) => string | undefined } = {}) {
  const items = options.items ?? ((n: number) => [n * 10 + 1, n * 10 + 2]);
  const next = options.next ?? ((n: number) => (n < pages ? `${ROUTE}?page=${n + 1}&per=2` : undefined));
  return capture(server, 'get', ROUTE, (seen) => {
    const n = Number(seen.url.searchParams.get('page') ?? 1);
    const link = next(n);
    const headers: Record<string, string> = link ? { link: `<${ROUTE}?page=${pages}&per=2>; rel="last", <${link}>; rel="next"` } : {};
    return HttpResponse.json(
      { skus: items(n).map((id) => ({ id, name: `sku ${id}` })), meta: { ordered_by: 'popularity', pagination: { page: n, per: 2, total_pages: pages } } },
      { headers },
    );
  });
}

describe('catalog pagination', () => {
  it('for await iterates every item of every page, following Link rel=next', async () => {
    const seen = listing(3);
    const ids: number[] = [];
    for await (const sku of client().c.catalog.categories.skus(40, { per: 2 })) ids.push(sku.id);
    expect(ids).toEqual([11, 12, 21, 22, 31, 32]);
    expect(seen.map((s) => s.url.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(seen[0]!.url.searchParams.get('per')).toBe('2');
  });

  it('.pages() yields each page with its typed meta', async () => {
    listing(2);
    const pages: Page<{ id: number }, unknown>[] = [];
    for await (const page of client().c.catalog.categories.skus(40).pages()) {
      expect(page.meta?.ordered_by).toBe('popularity');
      pages.push(page);
    }
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual([[11, 12], [21, 22]]);
    expect(pages[0]!.hasNextPage()).toBe(true);
    expect(pages[1]!.hasNextPage()).toBe(false);
  });

  it('an empty page in the middle does not end the iteration', async () => {
    listing(3, { items: (n) => (n === 2 ? [] : [n]) });
    const ids: number[] = [];
    for await (const sku of client().c.catalog.categories.skus(40)) ids.push(sku.id);
    expect(ids).toEqual([1, 3]);
  });

  it('a next link already visited rejects with ResponseValidationError instead of looping', async () => {
    const seen = listing(3, { next: () => `${ROUTE}?per=2&page=2` });
    const ids: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const sku of client().c.catalog.categories.skus(40)) ids.push(sku.id);
      })(),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(ids).toEqual([11, 12, 21, 22]);
    expect(seen).toHaveLength(2);
  });

  it('two concurrent nextPage() calls send one request', async () => {
    const seen = listing(2);
    const first = await client().c.catalog.categories.skus(40);
    const [a, b] = await Promise.all([first.nextPage(), first.nextPage()]);
    expect(a).toBe(b);
    expect(a.items.map((i) => i.id)).toEqual([21, 22]);
    expect(seen).toHaveLength(2);
  });

  it('prefetch is off by default: stopping after the first page sends one request', async () => {
    const seen = listing(3);
    for await (const page of client().c.catalog.categories.skus(40).pages()) {
      expect(page.items).toHaveLength(2);
      break;
    }
    expect(seen).toHaveLength(1);
  });

  it('with { prefetch: true } the next page is requested while the caller holds the current one', async () => {
    const seen = listing(3);
    const { c } = client(true);
    for await (const page of c.catalog.categories.skus(40, {}, { prefetch: true }).pages()) {
      expect(page.items).toHaveLength(2);
      // Let the prefetch go out while the caller still holds page 1.
      await new Promise((resolve) => setTimeout(resolve, 20));
      break;
    }
    expect(seen.map((s) => s.url.searchParams.get('page'))).toEqual([null, '2']);
  });

  it('account listings page too: favorites.list follows its Link header', async () => {
    const route = `${BASE}/favorites`;
    capture(server, 'get', route, (seen) => {
      const page = Number(seen.url.searchParams.get('page') ?? 1);
      return HttpResponse.json(
        { favorites: [{ id: page, sku_id: 100 + page }], meta: { pagination: { page, total_pages: 2 } } },
        page === 1 ? { headers: { link: `<${route}?owned=true&page=2>; rel="next"` } } : {},
      );
    });
    const ids: number[] = [];
    for await (const favorite of client().c.account.favorites.list({ owned: true })) ids.push(favorite.id);
    expect(ids).toEqual([1, 2]);
  });
});
