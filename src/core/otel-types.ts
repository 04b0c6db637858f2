/**
 * The members of `@opentelemetry/api`'s `Tracer`, `Span` and `Meter` the SDK calls: the
 * application's own objects fit them, and the package's declarations need no OpenTelemetry
 * installed. Nothing here imports `@opentelemetry/api`: the SDK uses only the objects it is given.
 */

/** Span and metric attributes. */
export type OpenTelemetryAttributes = Record<string, string | number | boolean | undefined>;

/** A span's identity, as `span.spanContext()` gives it. */
export interface OpenTelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** The part of an OpenTelemetry `Span` the SDK uses. */
export interface OpenTelemetrySpan {
  setAttributes(attributes: OpenTelemetryAttributes): unknown;
  addEvent(name: string, attributes?: OpenTelemetryAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  spanContext(): OpenTelemetrySpanContext;
  updateName?(name: string): unknown;
  end(): void;
}

/** Options of a span the SDK starts. */
export interface OpenTelemetrySpanOptions {
  kind?: number;
  attributes?: OpenTelemetryAttributes;
  links?: { context: OpenTelemetrySpanContext }[];
}

/** The part of an OpenTelemetry `Tracer` the SDK uses (`trace.getTracer('my-shop')`). */
export interface OpenTelemetryTracer {
  startActiveSpan<F extends (span: OpenTelemetrySpan) => unknown>(name: string, options: OpenTelemetrySpanOptions, fn: F): ReturnType<F>;
}

/** Options of an instrument the SDK creates. */
export interface OpenTelemetryInstrumentOptions {
  description?: string;
  unit?: string;
}

/** The part of an OpenTelemetry `Meter` the SDK uses (`metrics.getMeter('my-shop')`). */
export interface OpenTelemetryMeter {
  createHistogram(name: string, options?: OpenTelemetryInstrumentOptions): { record(value: number, attributes?: OpenTelemetryAttributes): void };
  createCounter(name: string, options?: OpenTelemetryInstrumentOptions): { add(value: number, attributes?: OpenTelemetryAttributes): void };
  createObservableGauge(
    name: string,
    options?: OpenTelemetryInstrumentOptions,
  ): { addCallback(callback: (result: { observe(value: number, attributes?: OpenTelemetryAttributes): void }) => void): void };
}
