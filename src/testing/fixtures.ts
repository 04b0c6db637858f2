/**
 * The sandbox DEMO-* orders, copied from the real service's recordings (test/fixtures/recorded/)
 * because the published package cannot read test/ at run time. Kept as recorded: they disagree
 * with the documentation in places (codes, extra line-item fields, missing members), which is the point.
 */
import recorded from './demo-orders.json';
import type { MockOrder } from './types.js';

/** Seeded into every mock unless `seedDemoOrders: false`. */
export const DEMO_ORDERS: readonly MockOrder[] = recorded.orders as unknown as MockOrder[];

/** DEMO-FEES as recorded: the real service answered this body, which is not valid JSON (a trailing comma). */
export const DEMO_FEES_RAW_BODY: string = recorded.feesRawBody;
