import type { OpenTelemetryAttributes, OpenTelemetrySpan, OpenTelemetrySpanContext, OpenTelemetryTracer } from '../core/otel-types.js';
import type { WebhookEvent } from '../schemas/webhook.js';

/**
 * The spans of webhook deliveries (and, with the inbox, of the events processed from it), loaded
 * only with the `tracer` option. Attributes carry the event's type and its order or return code,
 * the answer's status and the refusal's reason: never the URL (it holds the URL secret), a header or the body.
 */

/** `SpanKind.SERVER`, `SpanKind.CONSUMER` and `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CONSUMER = 4;
const STATUS_ERROR = 2;

/** A webhook handler (the handler's own type, kept here so no module imports the handler back). */
export type Deliveries = (request: Request, info?: { remoteAddress?: string | undefined }) => Promise<Response>;


/** The delivery span of each request being handled, for the inbox to link its processing to. */
const deliverySpans = new WeakMap<Request, OpenTelemetrySpanContext>();

/** Where tracing reads what the handler learnt of a delivery: its event once parsed (by request), why it was refused (by answer). */
export type DeliveryFacts = [events: WeakMap<Request, WebhookEvent>, refusals: WeakMap<Response, { reason: string }>];

/** `handle` with one SERVER span per delivery, active while it runs (so `onEvent`'s own spans are its children). */
export function traced(tracer: OpenTelemetryTracer, handle: Deliveries, ...[events, refusals]: DeliveryFacts): Deliveries {
  return (request, info) =>
    tracer.startActiveSpan('webhook delivery', { kind: SPAN_KIND_SERVER, attributes: { 'http.request.method': request.method } }, async (span) => {
      deliverySpans.set(request, span.spanContext());
      try {
        const response = await handle(request, info);
        const event = events.get(request);
        const reason = refusals.get(response)?.reason;
        const attributes: OpenTelemetryAttributes = { 'http.response.status_code': response.status };
        if (reason !== undefined) attributes['emporio.webhook.refusal_reason'] = reason;
        if (event !== undefined) {
          Object.assign(attributes, eventAttributes(event));
          span.updateName?.(`webhook ${printable(event.event_type)}`);
        }
        span.setAttributes(attributes);
        // As for any server: a refused request (4xx) is the sender's failure, not the receiver's.
        if (response.status >= 500) span.setStatus({ code: STATUS_ERROR, ...(reason === undefined ? {} : { message: reason }) });
        return response;
      } catch (error) {
        span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.name : 'thrown' });
        throw error;
      } finally {
        span.end();
      }
    });
}

/** The W3C `traceparent` of the delivery span that is receiving `request`, when there is one: the inbox keeps it with the event. */
export function deliveryTraceparent(request: Request): string | undefined {
  const context = deliverySpans.get(request);
  return context === undefined ? undefined : traceparentOf(context);
}

/**
 * One CONSUMER span for an event the inbox's processing hands to `onEvent`, active while `run`
 * runs, and linked to the delivery span that received the event (`traceparent`, as
 * {@link deliveryTraceparent} gave it when the event was appended).
 */
export function traceInboxEvent<T>(tracer: OpenTelemetryTracer, event: WebhookEvent, traceparent: string | undefined, run: () => Promise<T>): Promise<T> {
  const link = traceparent === undefined ? undefined : spanContextOf(traceparent);
  const options = { kind: SPAN_KIND_CONSUMER, attributes: eventAttributes(event), ...(link ? { links: [{ context: link }] } : {}) };
  return tracer.startActiveSpan(`process ${printable(event.event_type)}`, options, async (span: OpenTelemetrySpan) => {
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.name : 'thrown' });
      throw error;
    } finally {
      span.end();
    }
  });
}

function eventAttributes(event: WebhookEvent): OpenTelemetryAttributes {
  const attributes: OpenTelemetryAttributes = { 'emporio.webhook.event_type': printable(event.event_type) };
  const order = (event as { order?: { code?: unknown } }).order?.code;
  const returned = (event as { return?: { return_code?: unknown } }).return?.return_code;
  if (typeof order === 'string') attributes['emporio.order.code'] = printable(order);
  if (typeof returned === 'string') attributes['emporio.return.code'] = printable(returned);
  return attributes;
}

/** A sender's text as an attribute: printable ASCII, bounded. */
const printable = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);

function traceparentOf({ traceId, spanId, traceFlags }: OpenTelemetrySpanContext): string | undefined {
  if (!/^(?!0+$)[0-9a-f]{32}$/.test(traceId) || !/^(?!0+$)[0-9a-f]{16}$/.test(spanId)) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

function spanContextOf(traceparent: string): (OpenTelemetrySpanContext & { isRemote: boolean }) | undefined {
  const match = /^00-((?!0+-)[0-9a-f]{32})-((?!0+-)[0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent);
  return match ? { traceId: match[1] as string, spanId: match[2] as string, traceFlags: Number.parseInt(match[3] as string, 16), isRemote: true } : undefined;
}
