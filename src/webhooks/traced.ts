import type { OpenTelemetryTracer } from '../core/otel-types.js';
import type { DeliveryFacts, Deliveries } from './tracing.js';

/** `handle` traced with `tracer`; the tracing code (`tracing.ts`) is loaded with the first delivery. */
export function traced(tracer: OpenTelemetryTracer, handle: Deliveries, factsOf: (request: Request, response: Response) => DeliveryFacts): Deliveries {
  const loaded = import('./tracing.js').then((tracing) => tracing.traceDeliveries(tracer, handle, factsOf));
  return async (request, info) => (await loaded)(request, info);
}
