import { type Logger, scrub, thrownText } from './logger.js';
import { isThenable } from './time.js';

type HookName = 'onRequest' | 'onResponse' | 'onDrift';

/** The caller's hooks run so that one that throws never changes a call's outcome. */
export class HookCaller {
  /** Hooks that threw once already (each is reported once). */
  readonly #failed = new Set<HookName>();

  constructor(readonly logger: Logger) {}

  /** Runs `call`; a throw or a rejection is reported once per hook, then ignored. */
  call(name: HookName, call: () => unknown, token: string | undefined): void {
    const report = (error: unknown) => {
      if (this.#failed.has(name)) return;
      this.#failed.add(name);
      this.logger.warn?.(`hooks.${name} threw; the call goes on (later failures of this hook are not logged)`, {
        error: scrub(thrownText(error), token),
      });
    };
    try {
      const result = call();
      if (isThenable(result)) Promise.resolve(result).catch(report);
    } catch (error) {
      report(error);
    }
  }
}
