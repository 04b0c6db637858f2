import type { Answered, APIResponse } from './api-promise.js';
import { RequestValidationError, ResponseValidationError } from './errors.js';
import { redactUrl } from './logger.js';

const NO_ITEMS: readonly never[] = Object.freeze([]);

/** Where a run of empty pages that keep linking to a next one is taken for a broken listing. */
const MAX_EMPTY_PAGES_IN_A_ROW = 20;

/** `meta.pagination` as the service sends it. */
export interface Pagination {
  total_results?: number | null | undefined;
  total_pages?: number | null | undefined;
  page?: number | null | undefined;
  per?: number | null | undefined;
}

/**
 * What the transport hands back for one page.
 * @internal
 */
export interface PageData<Item, Meta> {
  items: Item[];
  meta: Meta | undefined;
  /** The whole wire object, root key and `meta` included. */
  body: unknown;
  /** The URL this page was read from (after redirects). */
  url: string;
  /** rel → URL, from the `Link` header. */
  links: Map<string, string>;
  /** The answer the page came from: `page.response` describes it. */
  answer: Answered;
}

/** @internal */
export type PageFetcher<Item, Meta> = (url: string | undefined) => Promise<PageData<Item, Meta>>;

/**
 * Shared by every page of one listing: stops loops, and remembers the prefetch choice.
 * @internal
 */
interface Chain<Item, Meta> {
  fetch: PageFetcher<Item, Meta>;
  /**
   * Each page's identity → its position in the listing (the first page is 0). Walking the
   * listing again meets every page at its own position; a loop meets one at another.
   */
  visited: Map<string, number>;
  prefetch: boolean;
}

/** The next page for an iteration: see `Page.#following`. */
let followingOf: <Item, Meta>(page: Page<Item, Meta>, keep: boolean) => Promise<Page<Item, Meta>>;

export class Page<Item, Meta = Record<string, unknown>> {
  readonly items: Item[];
  readonly meta: Meta | undefined;
  readonly body: unknown;
  readonly url: string;
  /** The URL of the next page: the `Link` rel=next, or, without a Link header, from `meta.pagination`. */
  readonly nextPageUrl: string | undefined;
  readonly #chain: Chain<Item, Meta>;
  readonly #answer: Answered;
  #response: APIResponse | undefined;
  /** Position in the listing: 0 for the first page. */
  readonly #position: number;
  /** Empty pages in a row up to this one (0 when it has items). */
  readonly #emptyRun: number;
  /** What this page knows of the next one (see `#following`). */
  readonly #next: NextPage<Item, Meta> = { pending: undefined, loaded: undefined, keep: false };

  /** @internal */
  constructor(data: PageData<Item, Meta>, chain: Chain<Item, Meta>, position = 0, emptyBefore = 0) {
    this.#position = position;
    // `items` may be missing: a list answer without its root key, which a caller reads otherwise (FBS line items).
    this.#emptyRun = data.items?.length ? 0 : emptyBefore + 1;
    this.#answer = data.answer;
    this.items = data.items;
    this.meta = data.meta;
    this.body = data.body;
    this.url = data.url;
    this.#chain = chain;
    // The Link header decides when present; meta.pagination only stands in for a missing header.
    this.nextPageUrl =
      data.links.size > 0 ? data.links.get('next') : nextFromPagination(data.url, this.pagination);
  }

  get pagination(): Pagination | undefined {
    const meta = this.meta as { pagination?: Pagination | null | undefined } | undefined;
    return meta?.pagination ?? undefined;
  }

  /** The HTTP answer this page came from (status, scrubbed headers, URL, request id), as `.withResponse()` gives it. */
  get response(): APIResponse {
    this.#response ??= this.#answer.response();
    return this.#response;
  }

  hasNextPage(): boolean {
    return this.nextPageUrl !== undefined;
  }

  /** Fetches the next page. Concurrent calls share one request. */
  nextPage(): Promise<Page<Item, Meta>> {
    return this.#following(true);
  }

  static {
    followingOf = (page, keep) => page.#following(keep);
  }

  /**
   * The next page, from the request in flight if there is one. `keep`: hold the page once
   * loaded, weakly, so a later `nextPage()` returns it without a request. Iterating does not
   * keep it: V8's young-generation collections treat a WeakRef's target as held, so through a
   * chain of them every page of a long listing would be copied twice before a full collection
   * freed it (on 68 KB pages that tripled the time spent collecting). Nor does the request in
   * flight hold this page (its callbacks hold `#next` only), so an iteration's finished page can
   * be collected while the next one loads, as in a plain loop.
   */
  #following(keep: boolean): Promise<Page<Item, Meta>> {
    const next = this.#next;
    const loaded = next.loaded?.deref();
    if (loaded) return Promise.resolve(loaded);
    if (keep) next.keep = true;
    if (next.pending) return next.pending;
    const loading = loadPage(this.#chain, this.nextPageUrl, this.#position + 1, this.#emptyRun);
    next.pending = loading;
    loading.then(
      (page) => {
        if (next.keep) next.loaded = new WeakRef(page);
        next.pending = undefined;
      },
      () => {
        if (next.pending === loading) next.pending = undefined;
      },
    );
    return loading;
  }
}

/** What a page knows of the next one: shared by its callers, and never a link back to the page. */
interface NextPage<Item, Meta> {
  /** The request in flight (concurrent calls share it). */
  pending: Promise<Page<Item, Meta>> | undefined;
  /**
   * The page once loaded, held weakly: a strong link from each page to the next would keep
   * every page of a long iteration alive through the first one (which the list's promise
   * holds), so memory would grow with the listing.
   */
  loaded: WeakRef<Page<Item, Meta>> | undefined;
  /** Whether a caller of `nextPage()` asked for it (so it is held once loaded). */
  keep: boolean;
}

/** The page at `url`, `position` in the listing, after `emptyRun` empty pages in a row. */
async function loadPage<Item, Meta>(chain: Chain<Item, Meta>, url: string | undefined, position: number, emptyRun: number): Promise<Page<Item, Meta>> {
  if (url === undefined) throw new RequestValidationError('There is no next page; check hasNextPage() first.');
  const key = pageKey(url);
  const seen = chain.visited.get(key);
  // A failed or collected page may be fetched again; only a page met at another position is a loop.
  if (seen !== undefined && seen !== position) {
    throw new ResponseValidationError('The next-page link points at a page already visited', {
      target: { method: 'GET', url: redactUrl(url) },
    });
  }
  // An empty page in the middle does not end a listing, but an endless run of them would never end.
  if (emptyRun >= MAX_EMPTY_PAGES_IN_A_ROW) {
    throw new ResponseValidationError(`${MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row, each linking to another: the listing was stopped`, {
      target: { method: 'GET', url: redactUrl(url) },
    });
  }
  const page = new Page(await chain.fetch(url), chain, position, emptyRun);
  chain.visited.set(key, position);
  return page;
}

/**
 * The promise of a list's first page that is also an async iterable of every item.
 * `await list()` → the first page; `for await (const item of list())` → every item;
 * `for await (const page of list().pages())` → page by page.
 */
export class PagePromise<Item, Meta = Record<string, unknown>>
  extends Promise<Page<Item, Meta>>
  implements AsyncIterable<Item>
{
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #prefetch: boolean;

  /** @internal */
  constructor(fetch: PageFetcher<Item, Meta>, options: { prefetch?: boolean | undefined } = {}) {
    const chain: Chain<Item, Meta> = { fetch, visited: new Map(), prefetch: options.prefetch ?? false };
    super((resolve, reject) => {
      fetch(undefined).then((data) => {
        chain.visited.set(pageKey(data.url), 0);
        resolve(new Page(data, chain));
      }, reject);
    });
    this.#prefetch = chain.prefetch;
  }

  async *pages(): AsyncGenerator<Page<Item, Meta>, void, undefined> {
    let page: Page<Item, Meta> = await (this as Promise<Page<Item, Meta>>);
    while (true) {
      let upcoming: Promise<Page<Item, Meta>> | undefined;
      if (this.#prefetch && page.hasNextPage()) {
        upcoming = followingOf(page, false);
        // The caller may stop early; an unobserved failure of the prefetch is not theirs.
        upcoming.catch(() => {});
      }
      yield page;
      if (!page.hasNextPage()) return;
      page = await (upcoming ?? followingOf(page, false));
    }
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    // Hand-written rather than `yield*` in an async generator: that costs several
    // microtask turns per item, which shows on long listings. One resolved promise per item here.
    const pages = this.pages();
    let items: readonly Item[] = [];
    let index = 0;
    const step = (result: IteratorResult<Page<Item, Meta>>): IteratorResult<Item> | Promise<IteratorResult<Item>> => {
      if (result.done) return { value: undefined, done: true };
      items = result.value.items;
      index = 0;
      // An empty page in the middle does not end the listing.
      if (items.length === 0) return pages.next().then(step);
      return { value: items[index++] as Item, done: false };
    };
    const nextPage = () => {
      // The finished page's items are not held while the next page loads.
      items = NO_ITEMS;
      return pages.next().then(step);
    };
    const iterator: AsyncIterableIterator<Item> = {
      next: () => (index < items.length ? Promise.resolve({ value: items[index++] as Item, done: false }) : nextPage()),
      return: (value?: unknown) => pages.return(undefined).then(() => ({ value: value as Item, done: true })),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}

/** Identity of a page for loop detection: the URL with its query sorted; no `page` means page 1. */
function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has('page')) parsed.searchParams.set('page', '1');
    parsed.searchParams.sort();
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

function nextFromPagination(url: string, pagination: Pagination | undefined): string | undefined {
  const page = pagination?.page;
  const total = pagination?.total_pages;
  if (typeof page !== 'number' || typeof total !== 'number' || page >= total) return undefined;
  const next = new URL(url);
  next.searchParams.set('page', String(page + 1));
  return next.href;
}
