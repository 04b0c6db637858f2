/**
 * `createOrderTracker` as `emporio` exports it: the tracker's code (and its option checks) load with
 * its first use, so the root entry stays as small for apps that do not use it. `emporio/orders-tracker`
 * exports the same tracker, checked and built at once.
 */
import type { OrderTracker, OrderTrackerOptions } from './tracker.js';

/**
 * Tracked orders, reconciliation and deadline alerts (see {@link OrderTracker}). A bad option
 * rejects the first call with a `TypeError` naming it; nothing is read or sent before.
 */
export function createOrderTracker(options: OrderTrackerOptions): OrderTracker {
  const loading = import('./tracker.js').then((loaded) => loaded.createOrderTracker(options));
  // A bad option rejects each call; it is no unhandled rejection of its own.
  loading.catch(() => {});
  // Every method of the tracker is async: each waits for the load, then calls the real one.
  const call =
    (name: keyof OrderTracker) =>
    async (...args: unknown[]) =>
      ((await loading)[name] as (...args: unknown[]) => unknown)(...args);
  return { track: call('track'), reconcile: call('reconcile'), checkDeadlines: call('checkDeadlines'), start: call('start'), tracked: call('tracked') } as OrderTracker;
}
