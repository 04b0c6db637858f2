import type { Answer } from './answer.js';
import { ResponseValidationError } from './errors.js';
import { parseLinkHeader } from './link.js';
import { type PageData, PagePromise } from './pagination.js';
import { resolveLinks } from './redirects.js';
import type { ListOptions, RequestSpec } from './request.js';

/** The item type of a list answer's root array. */
export type ItemOf<T> = T extends readonly (infer Item)[] ? Item : never;
/** The type of a list answer's `meta`, without null. */
export type MetaOf<Body> = Body extends { meta?: infer Meta | undefined } ? Exclude<Meta, null | undefined> : undefined;

/**
 * A paginated list whose items sit under the answer's root key `itemsKey`; the page's `meta`
 * is the answer's `meta` (absent or null both as undefined). `eachItem` sees every item as it
 * arrives. Later pages are the Link header's URLs, sent as they are (no query of the first's).
 */
export function listPages<Body extends object, K extends keyof Body>(
  send: (spec: RequestSpec<Body>) => Promise<Answer<Body>>,
  spec: RequestSpec<Body>,
  itemsKey: K,
  eachItem?: (item: ItemOf<Body[K]>) => void,
): PagePromise<ItemOf<Body[K]>, MetaOf<Body>> {
  type Item = ItemOf<Body[K]>;
  type Meta = MetaOf<Body>;
  const fetchPage = async (url: string | undefined): Promise<PageData<Item, Meta>> => {
    const answer = await send(url === undefined ? spec : { ...spec, path: url, query: undefined, querySchema: undefined });
    if (answer.body === undefined) {
      const { status, url, requestId } = answer.response();
      throw new ResponseValidationError('a list answer was empty', { status, target: { method: spec.method, url }, requestId });
    }
    const body = answer.body as Body & { meta?: Meta | null | undefined };
    const items = body[itemsKey] as Item[];
    if (eachItem && Array.isArray(items)) items.forEach(eachItem);
    return {
      items,
      meta: body.meta ?? undefined,
      body,
      url: answer.url,
      links: resolveLinks(parseLinkHeader(answer.link), answer.url),
      answer,
    };
  };
  return new PagePromise(fetchPage, { prefetch: (spec.options as ListOptions | undefined)?.prefetch });
}
