import { RedirectError, type RequestTarget } from './errors.js';
import { redactUrl, scrub } from './logger.js';
import type { RawAnswer } from './answer.js';
import { requestIdOf } from './answer.js';

/** Redirects: which are followed, where to, and which are remembered. */

export const MAX_REDIRECTS = 5;

export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Where a redirect answer sends the request next; a `RedirectError` when it must not be
 * followed (no or odd Location, credentials in it, https to http, a loop, too many hops).
 * `visited` holds the URLs seen so far, the start URL included.
 */
export function redirectTarget(
  raw: RawAnswer,
  url: string,
  visited: Set<string>,
  hop: number,
  target: RequestTarget,
  token: string | undefined,
): string {
  const location = raw.headers.get('location');
  const requestId = requestIdOf(raw.headers, token);
  if (!location) throw new RedirectError(`${raw.status} redirect without a Location header`, target, requestId);
  const next = httpUrl(location, url);
  if (next === undefined) throw new RedirectError(`${raw.status} redirect to a location that is not http(s)`, target, requestId);
  const nextUrl = new URL(next);
  // Its credentials stay out of the message: the URL is not shown.
  if (nextUrl.username || nextUrl.password) {
    throw new RedirectError(`${raw.status} redirect to a URL with credentials in it, not followed`, target, requestId);
  }
  // The body and custom headers would travel in clear text.
  if (nextUrl.protocol === 'http:' && url.startsWith('https:')) {
    throw new RedirectError(`${raw.status} redirect from https to http, not followed`, target, requestId);
  }
  if (visited.has(next)) throw new RedirectError(`redirect loop at ${scrub(redactUrl(next), token)}`, target, requestId);
  if (hop + 1 > MAX_REDIRECTS) throw new RedirectError(`more than ${MAX_REDIRECTS} redirects`, target, requestId);
  visited.add(next);
  return next;
}

/** 301/308 targets, remembered for the client's lifetime (bounded). */
export class PermanentRedirects {
  readonly #targets = new Map<string, string>();

  /** The URL that answered 301/308, not where the request began: an earlier 302 hop stays temporary. */
  remember(from: string, to: string): void {
    if (this.#targets.size >= 1000) this.#targets.clear();
    this.#targets.set(from, to);
  }

  /** Where 301/308 answers sent `url`, following remembered hops (a few at most, no cycle). */
  resolve(url: string): string {
    // Most clients never meet a permanent redirect: no lookup (and no hashing of the URL) then.
    if (this.#targets.size === 0) return url;
    let target = url;
    for (let i = 0; i < MAX_REDIRECTS; i++) {
      const next = this.#targets.get(target);
      if (next === undefined || next === url) break;
      target = next;
    }
    return target;
  }
}

/** Link targets resolved against the page's URL (RFC 8288); targets that are not http(s) are dropped. */
export function resolveLinks(links: Map<string, string>, pageUrl: string): Map<string, string> {
  const resolved = new Map<string, string>();
  for (const [rel, target] of links) {
    const url = httpUrl(target, pageUrl);
    if (url !== undefined) resolved.set(rel, url);
  }
  return resolved;
}

/** `reference` resolved against `base` when it is an http(s) URL; undefined otherwise. */
function httpUrl(reference: string, base: string): string | undefined {
  try {
    const url = new URL(reference, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
