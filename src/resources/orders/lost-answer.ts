import { ConnectionError, TimeoutError } from '../../core/errors.js';
/**
 * Exactly-once order actions (Orders API, CPS orders). An action is sent once, never repeated: when its answer
 * is lost (time-out, dropped connection) the request may or may not have taken effect,
 * so the order is read once and the call resolves if the order already shows the
 * effect. Otherwise, or if that read fails too, the original error is thrown: the
 * caller decides whether to try again.
 */
export async function actOnce<Order>(
  act: () => Promise<unknown>,
  readOrder: () => Promise<Order>,
  hasEffect: (order: Order) => boolean,
): Promise<void> {
  try {
    await act();
  } catch (error) {
    if (!(error instanceof ConnectionError || error instanceof TimeoutError)) throw error;
    let order: Order;
    try {
      order = await readOrder();
    } catch {
      throw error;
    }
    if (hasEffect(order)) return;
    throw error;
  }
}
