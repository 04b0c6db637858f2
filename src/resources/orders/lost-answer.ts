import { ConnectionError, TimeoutError } from '../../core/errors.js';
/**
 * Exactly-once order actions (Orders API, CPS orders). An action is sent once, never repeated: when its answer
 * is lost (time-out, dropped connection) the request may or may not have taken effect,
 * so the order is read once and the call resolves if the order already shows the
 * effect. Otherwise, or if that read fails too, the original error is thrown: the
 * caller decides whether to try again. Resolves to the answer that settled it.
 */
export async function actOnce<Order, A>(
  act: () => Promise<A>,
  readOrder: () => Promise<{ order: Order; answer: A }>,
  hasEffect: (order: Order) => boolean,
): Promise<A> {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof ConnectionError || error instanceof TimeoutError)) throw error;
    let read: { order: Order; answer: A };
    try {
      read = await readOrder();
    } catch {
      throw error;
    }
    // The read's answer is what shows the action took effect.
    if (hasEffect(read.order)) return read.answer;
    throw error;
  }
}
