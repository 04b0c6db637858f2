/** The server span of each webhook delivery (and the inbox's consumer span), through the OpenTelemetry SDK's in-memory exporter. */
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMemoryInbox, createWebhookHandler, processInbox, type WebhookHandlerOptions } from 'emporio/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryTraceparent, traceInboxEvent } from '../../src/webhooks/otel.js';

const SECRET = 'hook-secret-5f0c2a9e7b1d4c3a';
const delivery = (body: unknown, path = `/hooks/${SECRET}`) =>
  new Request(`https://shop.example${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const newOrder = { event_type: 'new_order', event_time: '2026-03-30T10:00:00+03:00', order: { code: '260330-1000001' } };

function setup(options: Partial<WebhookHandlerOptions> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('shop');
  const handler = createWebhookHandler({ urlSecret: SECRET, allowedRanges: false, tracer, onEvent: () => {}, ...options });
  return { handler, tracer, spans: () => exporter.getFinishedSpans() };
}

// As an application's OpenTelemetry set-up does (NodeSDK registers one): the active span follows async code.
beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

describe('webhook delivery spans', () => {
  it('makes one SERVER span per delivery with the event type, the order code and the status, and no URL secret', async () => {
    const { handler, spans } = setup();
    expect((await handler(delivery(newOrder))).status).toBe(200);
    expect((await handler(delivery(newOrder))).status).toBe(200); // a redelivery: its own span
    expect(spans()).toHaveLength(2);
    const [span] = spans();
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.name).toBe('webhook new_order');
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'emporio.webhook.event_type': 'new_order',
      'emporio.order.code': '260330-1000001',
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes, s.events, s.status]))).not.toContain(SECRET);
  });

  it('tells the refusal reason, and marks a failed onEvent as an error', async () => {
    const { handler, spans } = setup({
      onEvent: () => {
        throw new Error('database down');
      },
      onError: () => {},
    });
    expect((await handler(delivery(newOrder, '/hooks/wrong-secret-0000000000'))).status).toBe(404);
    expect((await handler(delivery(newOrder))).status).toBe(500);
    const [refused, failed] = spans();
    expect(refused?.attributes).toMatchObject({ 'http.response.status_code': 404, 'emporio.webhook.refusal_reason': 'url_secret' });
    expect(refused?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.attributes).toMatchObject({ 'http.response.status_code': 500, 'emporio.webhook.refusal_reason': 'handler_failed' });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(spans().map((s) => [s.attributes, s.status]))).not.toContain('database down');
  });

  it("makes the delivery span the parent of onEvent's own spans", async () => {
    const { handler, spans, tracer } = setup({ onEvent: () => tracer.startSpan('save order').end() });
    await handler(delivery(newOrder));
    const delivered = spans().find((s) => s.name === 'webhook new_order');
    const saved = spans().find((s) => s.name === 'save order');
    expect(saved?.parentSpanContext?.spanId).toBe(delivered?.spanContext().spanId);
  });

  it('links the consumer span of an event processed from the inbox to its delivery span', async () => {
    const { handler, spans, tracer } = setup();
    const request = delivery(newOrder);
    await handler(request);
    const traceparent = deliveryTraceparent(request);
    const deliverySpan = spans().find((s) => s.kind === SpanKind.SERVER);
    expect(traceparent).toBe(`00-${deliverySpan?.spanContext().traceId}-${deliverySpan?.spanContext().spanId}-01`);
    await traceInboxEvent(tracer, newOrder as Parameters<typeof traceInboxEvent>[1], traceparent, async () => 'done');
    const consumer = spans().find((s) => s.kind === SpanKind.CONSUMER);
    expect(consumer?.name).toBe('process new_order');
    expect(consumer?.attributes['emporio.order.code']).toBe('260330-1000001');
    expect(consumer?.links[0]?.context.spanId).toBe(deliverySpan?.spanContext().spanId);
    expect(consumer?.links[0]?.context.traceId).toBe(deliverySpan?.spanContext().traceId);
  });

  it('processInbox({ tracer }) makes one CONSUMER span per event, linked to the delivery that brought it', async () => {
    const inbox = createMemoryInbox();
    const { handler, spans, tracer } = setup({ inbox, onEvent: undefined });
    expect((await handler(delivery(newOrder))).status).toBe(200);
    const stop = new AbortController();
    const handled: string[] = [];
    const worker = processInbox({
      inbox,
      tracer,
      signal: stop.signal,
      pollMs: 10,
      onEvent: (event) => {
        handled.push(event.event_type);
        tracer.startSpan('save order').end();
        stop.abort();
      },
    });
    await worker;
    expect(handled).toEqual(['new_order']);
    const deliverySpan = spans().find((s) => s.kind === SpanKind.SERVER);
    const consumer = spans().find((s) => s.kind === SpanKind.CONSUMER);
    expect(consumer?.name).toBe('process new_order');
    expect(consumer?.links[0]?.context.spanId).toBe(deliverySpan?.spanContext().spanId);
    expect(consumer?.links[0]?.context.traceId).toBe(deliverySpan?.spanContext().traceId);
    // onEvent's own spans are the consumer span's children.
    const saved = spans().find((s) => s.name === 'save order');
    expect(saved?.parentSpanContext?.spanId).toBe(consumer?.spanContext().spanId);
  });
});
