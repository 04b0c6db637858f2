/**
 * Listening to a caller's AbortSignal. Many calls may wait on one signal at once (one shutdown
 * signal for a whole run, `AbortSignal.timeout()` for a batch of requests): a listener each would
 * make Node warn of a memory leak past ten, though nothing leaks. One listener per signal serves
 * them all, and goes once none waits.
 */

interface Waiters {
  callbacks: Set<() => void>;
  listener: () => void;
}

const waiting = new WeakMap<AbortSignal, Waiters>();

/**
 * Runs `onAbort` when `signal` aborts (it must not have yet), unless the function returned is
 * called first: call it once the wait is over.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waiting.delete(signal);
      for (const callback of callbacks) {
        try {
          callback();
        } catch (error) {
          // As a listener's own error would be: reported, and the others still run.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    };
    waiters = { callbacks, listener };
    waiting.set(signal, waiters);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A wrapper of its own, so the same function registered twice is two waits.
  const entry = () => onAbort();
  const own = waiters;
  own.callbacks.add(entry);
  return () => {
    if (!own.callbacks.delete(entry) || own.callbacks.size > 0) return;
    signal.removeEventListener('abort', own.listener);
    if (waiting.get(signal) === own) waiting.delete(signal);
  };
}
