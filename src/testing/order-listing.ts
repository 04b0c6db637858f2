/**
 * The orders listing shop plugins use, `GET /merchants/ecommerce/orders?state=open&per=50`, which
 * the service's documentation does not show: the mock's orders (one state, or all), oldest first,
 * paged as the other listings. `listing: 404 | 405` answers as a service without it would.
 */
import { paginate } from './paginate.js';
import type { Route } from './router.js';
import type { MockOrder } from './types.js';
import { fail, wireError } from './wire.js';

/** How the mock answers the listing: served, or refused as a service without it (404 not found, 405 not allowed). */
export type OrdersListingMode = 'served' | 404 | 405;

export function createOrderListing(context: { orders: () => MockOrder[]; expireDue: () => void }, initial: OrdersListingMode = 'served') {
  let mode: OrdersListingMode = initial;
  const route: Route = {
    method: 'GET',
    pattern: '/merchants/ecommerce/orders',
    api: 'orders',
    handler: ({ url }) => {
      if (mode === 404) return wireError(404, 'not_found', 'No route for GET /merchants/ecommerce/orders');
      if (mode === 405) {
        const refused = wireError(405, 'method_not_allowed', 'GET is not allowed on /merchants/ecommerce/orders');
        refused.headers.set('Allow', 'POST');
        return refused;
      }
      const state = url.searchParams.get('state');
      if (state === '') fail(400, 'invalid_format', "Field 'state' has invalid type");
      context.expireDue();
      const orders = context.orders().filter((order) => state === null || order.state === state);
      return paginate(url, 'orders', orders);
    },
  };
  return {
    routes: [route],
    /** Serve the listing, or refuse it with 404 or 405 from now on. */
    setMode(next: OrdersListingMode): void {
      if (next !== 'served' && next !== 404 && next !== 405) throw new TypeError("mock.orders.setListing: expected 'served', 404 or 405");
      mode = next;
    },
  };
}
