import type { RequestTarget } from './errors.js';

/**
 * What tracing and metrics are told of one request description sent (one span): only with
 * the `tracer` or `meter` option, whose code (`src/otel/`) is loaded on first use.
 * @internal
 */
export interface CallTelemetry {
  /** A request goes on the wire (each try and redirect hop); `atApi`: to the service's own origin. */
  sending(headers: Record<string, string>, atApi: boolean): void;
  /** Try `attempt` follows in `delayMs`, after `error`. */
  retrying(attempt: number, delayMs: number, error: Error): void;
  /** The rate limiter holds the request for `ms` (`reason`: its step's status). */
  waiting(ms: number, reason: string): void;
}

/** A request's target, with the telemetry of its call when there is one (errors copy only its method and URL). @internal */
export type TracedTarget = RequestTarget & { telemetry?: CallTelemetry | undefined };
