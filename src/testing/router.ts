/** A tiny router: method + path pattern (`/orders/:code/accept`) → handler. */

/** Which token and Accept rules a route follows. */
export type Api = 'orders' | 'products' | 'catalog' | 'account' | 'cps' | 'oauth';

export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  /** The bearer token the request carried (already checked). */
  token: string;
}

export type RouteHandler = (context: RouteContext) => Response | Promise<Response>;

export interface Route {
  method: string;
  pattern: string;
  api: Api;
  handler: RouteHandler;
}

interface CompiledRoute extends Route {
  segments: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

export class Router {
  readonly #routes: CompiledRoute[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) {
      this.#routes.push({ ...route, segments: route.pattern.split('/').filter(Boolean) });
    }
    return this;
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const part = parts[i] as string;
    if (segment.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[segment.slice(1)] = value;
    } else if (segment !== part) {
      return undefined;
    }
  }
  return params;
}
