import type { Answer } from './answer.js';
import type { RequestSpec } from './request.js';
import type { CallTelemetry } from './telemetry.js';

/** Tracing and metrics around each request description the transport sends (`src/otel/client.ts`). @internal */
export interface ClientTelemetry {
  call<T>(spec: RequestSpec<unknown>, run: (call: CallTelemetry) => Promise<Answer<T>>): Promise<Answer<T>>;
}
