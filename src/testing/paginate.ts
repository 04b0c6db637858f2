/** The Catalog API documentation's paging: page/per query, `Link: <...>; rel="next", <...>; rel="last"` and meta.pagination. */
import { fail, json } from './wire.js';

export const DEFAULT_PER = 25;
const MAX_PER = 500;

export function pageParams(url: URL, defaultPer = DEFAULT_PER): { page: number; per: number } {
  const read = (name: string, fallback: number, max: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max) {
      fail(400, 'InvalidParameter', `${name} must be an integer between 1 and ${max}`);
    }
    return value;
  };
  return { page: read('page', 1, Number.MAX_SAFE_INTEGER), per: read('per', defaultPer, MAX_PER) };
}

/** One page of `items` under `rootKey`, with the Link header when more pages exist; `per` defaults to `defaultPer`. */
export function paginate<T>(url: URL, rootKey: string, items: readonly T[], meta: Record<string, unknown> = {}, defaultPer = DEFAULT_PER): Response {
  const { page, per } = pageParams(url, defaultPer);
  const totalPages = Math.max(1, Math.ceil(items.length / per));
  const body = {
    [rootKey]: items.slice((page - 1) * per, page * per),
    meta: { ...meta, pagination: { total_results: items.length, total_pages: totalPages, page, per } },
  };
  const headers = new Headers();
  if (page < totalPages) {
    const link = (target: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(target));
      next.searchParams.set('per', String(per));
      return `<${next.href}>`;
    };
    headers.set('Link', `${link(page + 1)}; rel="next", ${link(totalPages)}; rel="last"`);
  }
  return json(200, body, headers);
}
