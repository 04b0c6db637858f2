/** Time bounds: waiting, and not waiting longer than allowed. */
import { whenAborted } from './abort.js';

/** setTimeout's longest delay: a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
    const stopListening =
      signal &&
      whenAborted(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
  });
}

/**
 * `promise`'s outcome; or, after `ms`, what `onTimeout()` returns (or throws); or the signal's
 * reason once it aborts. Nothing a call waits for (a token function, a store, a user's handler)
 * may outlive its bound: what was waited for is left to settle on its own, its late outcome dropped.
 */
export function within<T, U = T>(promise: PromiseLike<T>, ms: number, onTimeout: () => U, signal?: AbortSignal): Promise<T | U> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      // Its outcome is dropped, and a rejection of it is not left unhandled.
      promise.then(undefined, () => {});
      return reject(signal.reason);
    }
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      stopListening?.();
      finish();
    };
    const timer = setTimeout(() => settle(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }), Math.min(Math.max(1, ms), MAX_TIMER_MS));
    const stopListening = signal && whenAborted(signal, () => settle(() => reject(signal.reason)));
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** A promise or any other thenable (a store or a hook may return either). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
