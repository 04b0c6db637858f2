/**
 * `emporio/orders-tracker`: tracked orders, reconciliation and deadline alerts. Its own entry, so
 * `emporio` stays as small for those who do not use it; share its state between instances with
 * `redisStores(...).orders` from `emporio/redis`.
 */
export {
  createOrderTracker,
  type DeadlineInfo,
  type DeadlineKind,
  type OrderTracker,
  type OrderTrackerEventContext,
  type OrderTrackerOptions,
} from './tracker.js';
export { memoryOrderTrackerStore, type OrderTrackerStore, type TrackedOrder } from './store.js';
export type { TrackedOrderFields } from './snapshot.js';
