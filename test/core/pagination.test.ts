import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from 'emporio';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();

/** `pages[i]` is the ids on page i+1; each page links to the next with a Link header. */
function pagedCategories(pages: number[][], link: (page: number) => string | undefined = defaultLink(pages.length)) {
  const requested: number[] = [];
  server.use(
    http.get(`${BASE}/categories`, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
      requested.push(page);
      const headers: Record<string, string> = {};
      const value = link(page);
      if (value) headers.link = value;
      return HttpResponse.json(
        { categories: (pages[page - 1] ?? []).map((id) => ({ id })), meta: { pagination: { page, per: 2, total_pages: pages.length } } },
        { headers },
      );
    }),
  );
  return requested;
}

function defaultLink(total: number) {
  return (page: number) =>
    page < total
      ? `<${BASE}/categories?page=${page + 1}&per=2>; rel="next", <${BASE}/categories?page=${total}&per=2>; rel="last"`
      : `<${BASE}/categories?page=1&per=2>; rel="first"`;
}

const client = () => makeClient({ cache: false, rateLimit: false });

describe('pagination', () => {
  it('iterates every item over several pages with for await', async () => {
    const requested = pagedCategories([[1, 2], [3, 4], [5]]);
    const ids: number[] = [];
    for await (const category of client().catalog.categories.list({ per: 2 })) ids.push(category.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(requested).toEqual([1, 2, 3]);
  });

  it('gives the first page on await, with items, meta and pagination', async () => {
    pagedCategories([[1, 2], [3]]);
    const page = await client().catalog.categories.list({ per: 2 });
    expect(page.items.map((c) => c.id)).toEqual([1, 2]);
    expect(page.pagination).toEqual({ page: 1, per: 2, total_pages: 2 });
    expect(page.hasNextPage()).toBe(true);
    const next = await page.nextPage();
    expect(next.items.map((c) => c.id)).toEqual([3]);
    expect(next.hasNextPage()).toBe(false);
  });

  it('walks page by page with .pages()', async () => {
    pagedCategories([[1], [2], [3]]);
    const sizes: number[] = [];
    for await (const page of client().catalog.categories.list().pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([1, 1, 1]);
  });

  it('does not stop on an empty page in the middle', async () => {
    pagedCategories([[1], [], [3]]);
    const ids: number[] = [];
    for await (const c of client().catalog.categories.list()) ids.push(c.id);
    expect(ids).toEqual([1, 3]);
  });

  it('stops on the absence of a next link even if meta says more pages', async () => {
    pagedCategories([[1], [2]], (page) => (page === 1 ? `<${BASE}/categories?page=1>; rel="first"` : undefined));
    const ids: number[] = [];
    for await (const c of client().catalog.categories.list()) ids.push(c.id);
    expect(ids).toEqual([1]);
  });

  it('falls back to meta.pagination when there is no Link header', async () => {
    const requested = pagedCategories([[1], [2], [3]], () => undefined);
    const ids: number[] = [];
    for await (const c of client().catalog.categories.list()) ids.push(c.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(requested).toEqual([1, 2, 3]);
  });

  it('rejects a next link already visited instead of looping', async () => {
    pagedCategories([[1], [2]], () => `<${BASE}/categories?per=2&page=1>; rel="next"`);
    const ids: number[] = [];
    const error = await (async () => {
      for await (const c of client().catalog.categories.list({ per: 2 })) ids.push(c.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(ids).toEqual([1]);
  });

  it('keeps a token echoed in a looping next link out of the error', async () => {
    const link = `<${BASE}/categories?page=2&per=2&access_token=${TOKEN}>; rel="next"`;
    pagedCategories([[1], [2], [3]], () => link);
    const error = await (async () => {
      for await (const category of client().catalog.categories.list({ per: 2 })) expect(category.id).toBeGreaterThan(0);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('already visited');
    expect((error as Error).message).toContain('access_token=%5Bredacted%5D');
    expect((error as Error).message).not.toContain(TOKEN);
    expect(inspect(error, { depth: 5 })).not.toContain(TOKEN);
  });

  it('sends one request for two concurrent nextPage() calls', async () => {
    const requested = pagedCategories([[1], [2]]);
    const page = await client().catalog.categories.list();
    const [a, b] = await Promise.all([page.nextPage(), page.nextPage()]);
    expect(a).toBe(b);
    expect(requested).toEqual([1, 2]);
  });

  it('prefetches the next page only when asked', async () => {
    const requested = pagedCategories([[1], [2], [3]]);
    for await (const _ of client().catalog.categories.list({}, { prefetch: false })) break;
    expect(requested).toEqual([1]);
    requested.length = 0;
    for await (const _ of client().catalog.categories.list({}, { prefetch: true })) break;
    await new Promise((r) => setTimeout(r, 50));
    expect(requested).toEqual([1, 2]);
  });

  it('reads unusual but valid Link headers', async () => {
    pagedCategories([[1], [2]], (page) =>
      page === 1 ? `<${BASE}/categories?page=1>; title="a, b"; rel=first, <${BASE}/categories?page=2>; REL="next last"` : undefined,
    );
    const ids: number[] = [];
    for await (const c of client().catalog.categories.list()) ids.push(c.id);
    expect(ids).toEqual([1, 2]);
  });

  it('parses a hostile Link header without hanging', async () => {
    const hostile = `<${'<'.repeat(20_000)}; rel=${'"'.repeat(20_000)}, ${';'.repeat(20_000)}`;
    pagedCategories([[1]], () => hostile);
    const page = await client().catalog.categories.list();
    expect(page.items).toHaveLength(1);
  });
});
