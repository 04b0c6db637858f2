/**
 * The mock's admin API: plain JSON over HTTP under `/__mock/admin/`, so a backend in any language
 * (PHP, Python, a shell with curl) can place orders and move them through their states, each move
 * sending the webhooks the service would. No token and no Accept header: it is the kit's own
 * control, not part of the service (the server listens on loopback). docs/testing-from-php-or-python.md
 * documents it; `emporio-mock order ...` and `emporio-mock webhook ...` call it.
 *
 *   POST   /__mock/admin/orders                    { ...order fields }   → 201 { order }  (new_order)
 *   GET    /__mock/admin/orders                                          → { orders }
 *   GET    /__mock/admin/orders/:code                                    → { order }
 *   POST   /__mock/admin/orders/:code/:action      accept | cancel | dispatch | deliver | return
 *                                                  | partially_return | extend | voucher | resend
 *                                                                       → { order }
 *   GET    /__mock/admin/settings                                        → { vendor, tokens }
 *                                                  (what `emporio-mock trigger` needs to call the mock)
 *   GET    /__mock/admin/webhooks                                        → { urls, deliveries }
 *   POST   /__mock/admin/webhooks                  { url }               → 201 { urls }
 *   DELETE /__mock/admin/webhooks                  { url }               → { urls }
 *
 * Errors: 404 `{ error }` for an unknown order or path, 409 `{ error }` for an action the order's
 * state does not allow, 400 `{ error }` for a body that is not what the path takes (or a path with a
 * broken `%` escape), 413 `{ error }` for a body past 64 KiB, 415 for a POST or DELETE without
 * `Content-Type: application/json`, 403 for a `Host` that is no loopback name, IP address or the
 * mock's own host (admin-guard.ts says why).
 */
import { readLimited } from '../webhooks/read-limited.js';
import { adminRefusal } from './admin-guard.js';
import type { MockOrder } from './types.js';
import { redactedWebhookUrl, type WebhookDelivery } from './events/webhook-sender.js';

export const ADMIN_PREFIX = '/__mock/admin';

/** An admin body is an order's fields or a URL: far less than this. */
const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/** A body past `MAX_ADMIN_BODY_BYTES`: answered 413. */
class BodyTooLargeError extends Error {}

/** The kit actions the admin API calls (a slice of `mock`). */
export interface AdminTarget {
  vendor: string;
  /** The first accepted token of each API: test values, told to callers the Host check lets in. */
  tokens: Readonly<Record<string, string>>;
  orders: {
    create(overrides?: Partial<MockOrder>): MockOrder;
    get(code: string): MockOrder | undefined;
    list(): MockOrder[];
    autoAccept(code: string): MockOrder;
    cancel(code: string): MockOrder;
    dispatch(code: string): MockOrder;
    deliver(code: string): MockOrder;
    returnOrder(code: string): MockOrder;
    partiallyReturn(code: string): MockOrder;
    extend(code: string): MockOrder;
    createVoucher(code: string): MockOrder;
    resend(code: string): boolean;
  };
  webhooks: {
    register(url: string): void;
    unregister(url: string): void;
    readonly urls: string[];
    readonly deliveries: readonly WebhookDelivery[];
  };
}

/** The order moves, by the name the path and the CLI use. */
export const ORDER_ACTIONS = {
  accept: (target: AdminTarget, code: string) => target.orders.autoAccept(code),
  cancel: (target: AdminTarget, code: string) => target.orders.cancel(code),
  dispatch: (target: AdminTarget, code: string) => target.orders.dispatch(code),
  deliver: (target: AdminTarget, code: string) => target.orders.deliver(code),
  return: (target: AdminTarget, code: string) => target.orders.returnOrder(code),
  partially_return: (target: AdminTarget, code: string) => target.orders.partiallyReturn(code),
  extend: (target: AdminTarget, code: string) => target.orders.extend(code),
  voucher: (target: AdminTarget, code: string) => target.orders.createVoucher(code),
  resend: (target: AdminTarget, code: string) => {
    if (!target.orders.resend(code)) throw new Error(`order ${code} has no event to resend`);
    return target.orders.get(code) as MockOrder;
  },
} as const;
export type OrderAction = keyof typeof ORDER_ACTIONS;

/** What the admin API says the webhook sender did: URLs without their secret. */
const shownDelivery = (delivery: WebhookDelivery) => ({ ...delivery, url: redactedWebhookUrl(delivery.url) });

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });

/**
 * The admin API's answer to `request`, or undefined when its path is not under `/__mock/admin`.
 * `boundHost` is the host name the mock was started on (its base URL's).
 */
export async function handleAdmin(target: AdminTarget, request: Request, path: string, boundHost: string): Promise<Response | undefined> {
  if (path !== ADMIN_PREFIX && !path.startsWith(`${ADMIN_PREFIX}/`)) return undefined;
  const refusal = adminRefusal(request, boundHost);
  if (refusal) return reply(refusal.status, { error: refusal.error });
  const { method } = request;
  let parts: string[];
  try {
    parts = path.slice(ADMIN_PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return reply(400, { error: 'the path has a malformed % escape' });
  }
  try {
    if (parts[0] === 'orders') {
      const [, code, action, ...rest] = parts;
      if (rest.length > 0) return reply(404, { error: `no admin path ${path}` });
      if (code === undefined) {
        if (method === 'GET') return reply(200, { orders: target.orders.list() });
        if (method === 'POST') return reply(201, { order: target.orders.create((await readBody(request)) as Partial<MockOrder>) });
        return reply(405, { error: 'GET or POST' });
      }
      if (target.orders.get(code) === undefined) return reply(404, { error: `no order ${code}` });
      if (action === undefined) return method === 'GET' ? reply(200, { order: target.orders.get(code) }) : reply(405, { error: 'GET' });
      const move = ORDER_ACTIONS[action as OrderAction];
      if (move === undefined || !Object.hasOwn(ORDER_ACTIONS, action)) {
        return reply(404, { error: `unknown action ${action}: one of ${Object.keys(ORDER_ACTIONS).join(', ')}` });
      }
      if (method !== 'POST') return reply(405, { error: 'POST' });
      try {
        return reply(200, { order: move(target, code) });
      } catch (error) {
        // The kit refuses a move its state does not allow (an accepted order cannot be accepted).
        return reply(409, { error: (error as Error).message });
      }
    }
    if (parts[0] === 'settings' && parts.length === 1) {
      return method === 'GET' ? reply(200, { vendor: target.vendor, tokens: target.tokens }) : reply(405, { error: 'GET' });
    }
    if (parts[0] === 'webhooks' && parts.length === 1) {
      if (method === 'GET') return reply(200, { urls: target.webhooks.urls.map(redactedWebhookUrl), deliveries: target.webhooks.deliveries.map(shownDelivery) });
      if (method !== 'POST' && method !== 'DELETE') return reply(405, { error: 'GET, POST or DELETE' });
      const { url } = (await readBody(request)) as { url?: unknown };
      if (typeof url !== 'string') return reply(400, { error: 'the body must be { "url": "http://..." }' });
      if (method === 'POST') target.webhooks.register(url);
      else target.webhooks.unregister(url);
      return reply(method === 'POST' ? 201 : 200, { urls: target.webhooks.urls.map(redactedWebhookUrl) });
    }
    return reply(404, { error: `no admin path ${path}` });
  } catch (error) {
    return reply(error instanceof BodyTooLargeError ? 413 : 400, { error: (error as Error).message });
  }
}

/** A JSON object body, or `{}` for none. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readLimited(request, MAX_ADMIN_BODY_BYTES);
  if (bytes === undefined) throw new BodyTooLargeError(`the body is larger than ${MAX_ADMIN_BODY_BYTES} bytes`);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the body must be a JSON object');
  return value as Record<string, unknown>;
}
