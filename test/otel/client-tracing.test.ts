/** The client's spans and metrics, through the OpenTelemetry SDK's in-memory exporter and a metric reader, against the mock marketplace. */
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MarketplaceClient, type ClientOptions, NotFoundError } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
  async metrics(): Promise<MetricData[]> {
    const { resourceMetrics } = await this.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  }
}

// As an application's OpenTelemetry set-up does (NodeSDK registers one): the active span follows async code.
beforeAll(() => void context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
afterAll(() => context.disable());

let mock: MockMarketplace | undefined;
afterEach(() => mock?.close());

/** A traced client on the mock kit; `answer` may replace the kit's answer to a request (a busy service). */
function setup(options: Partial<ClientOptions> = {}, answer?: (request: Request, attempt: number) => Response | undefined) {
  mock = createMockMarketplace({ seed: 1 });
  const kit = mock;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const sent: Request[] = [];
  const client = new MarketplaceClient({
    baseUrl: kit.baseUrl,
    vendor: kit.vendor,
    tokens: kit.tokens,
    tracer: provider.getTracer('shop'),
    meter: meterProvider.getMeter('shop'),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return answer?.(request, sent.length) ?? kit.fetch(request);
    },
    ...options,
  });
  return { client, mock: kit, spans: () => exporter.getFinishedSpans(), reader, sent };
}

/** Every string an exported span carries: attributes, events, status. */
function everything(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })));
}

const busy = () => Response.json({ errors: [{ code: 'busy', messages: ['try later'] }] }, { status: 503, headers: { 'retry-after': '0' } });

describe('client spans', () => {
  it('names one CLIENT span per call after its method, with the HTTP conventions and the request id', async () => {
    const { client, spans, mock } = setup();
    const order = await client.orders.get('DEMO-OPEN');
    expect(order.code).toBe('DEMO-OPEN');
    const [span] = spans();
    expect(spans()).toHaveLength(1);
    expect(span?.name).toBe('orders.get');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    const url = new URL(mock.baseUrl);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/merchants/ecommerce/orders/{code}',
      'server.address': url.hostname,
      'http.response.status_code': 200,
      'emporio.api': 'orders',
    });
    expect(span?.attributes['http.request.resend_count']).toBeUndefined();
    const requestId = (await client.orders.get('DEMO-OPEN').withResponse()).response.requestId;
    if (requestId !== undefined) expect(spans()[1]?.attributes['emporio.request_id']).toBe(requestId);
  });

  it('names actions and lists after their methods too, next pages included', async () => {
    const { client, spans, mock } = setup();
    const open = await client.orders.get('DEMO-OPEN');
    await client.orders.accept('DEMO-OPEN', {
      pickup_location: open.accept_options?.pickup_location?.[0]?.id as string,
      pickup_window: open.accept_options?.pickup_window?.[0]?.id as number,
      number_of_parcels: 1,
    });
    let pages = 0;
    for await (const _ of client.catalog.categories.skus(mock.catalog.ids.leaf, { per: 5 }).pages()) if (++pages === 2) break;
    expect(spans().map((s) => s.name)).toEqual(['orders.get', 'orders.accept', 'catalog.categories.skus', 'catalog.categories.skus']);
    expect(spans()[1]?.attributes).toMatchObject({ 'http.request.method': 'POST', 'url.template': '/merchants/ecommerce/orders/{code}/accept' });
    expect(spans()[3]?.attributes['url.template']).toBe('/categories/{id}/skus');
  });

  it('marks a failed call as an error with error.type and the status, and keeps the token out of every span', async () => {
    const { client, spans, mock } = setup();
    const error = await client.orders.get('NOPE-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const [span] = spans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes).toMatchObject({ 'error.type': '404', 'http.response.status_code': 404 });
    const text = everything(spans());
    for (const token of Object.values(mock.tokens)) expect(text).not.toContain(token);
  });

  it('records each retry as an event, and the resend count', async () => {
    const { client, spans, sent, mock } = setup({ maxRetries: 2 }, (request, attempt) => (attempt <= 2 && request.method === 'GET' ? busy() : undefined));
    await client.orders.get('DEMO-OPEN');
    expect(sent).toHaveLength(3);
    const [span] = spans();
    expect(span?.attributes['http.request.resend_count']).toBe(2);
    expect(span?.attributes['http.response.status_code']).toBe(200);
    const retries = span?.events.filter((e) => e.name === 'retry') ?? [];
    expect(retries.map((e) => e.attributes?.['emporio.retry.attempt'])).toEqual([1, 2]);
    expect(retries.every((e) => e.attributes?.['emporio.retry.reason'] === '503' && e.attributes?.['emporio.retry.delay_ms'] === 0)).toBe(true);
    for (const token of Object.values(mock.tokens)) expect(everything(spans())).not.toContain(token);
  });

  it('records a rate-limit wait as an event: how long, and why', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 1;
    const { client, spans } = setup({}, (request, attempt) =>
      attempt === 1
        ? Response.json({ category: { id: 1 } }, { headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } })
        : request.url.includes('/categories/') ? Response.json({ category: { id: 1 } }) : undefined,
    );
    await client.catalog.categories.get(1);
    await client.catalog.categories.get(2);
    const waits = spans()[1]?.events.filter((e) => e.name === 'rate_limit.wait') ?? [];
    expect(waits).toHaveLength(1);
    expect(waits[0]?.attributes?.['emporio.rate_limit.reason']).toBe('window');
    expect(waits[0]?.attributes?.['emporio.rate_limit.wait_ms']).toBeGreaterThan(0);
  });

  it("is a child of the application's active span, and sends traceparent only when asked", async () => {
    const quiet = setup();
    await quiet.client.orders.get('DEMO-OPEN');
    expect(quiet.sent[0]?.headers.get('traceparent')).toBeNull();
    quiet.mock.close();

    const { client, spans, sent } = setup({ propagateTraceContext: true });
    const provider = new BasicTracerProvider();
    const parent = provider.getTracer('app').startSpan('handle request');
    await context.with(trace.setSpan(context.active(), parent), () => client.orders.get('DEMO-OPEN'));
    parent.end();
    const [span] = spans();
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    const traceparent = sent[0]?.headers.get('traceparent');
    expect(traceparent).toBe(`00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`);
  });
});

describe('client metrics', () => {
  it('measures call durations by method and outcome, 429 and 5xx answers, retries and the rate-limit room left', async () => {
    const { client, reader } = setup({ maxRetries: 1 }, (_request, attempt) => (attempt === 1 ? busy() : undefined));
    await client.orders.get('DEMO-OPEN');
    await client.orders.get('NOPE-1').catch(() => undefined);
    await client.catalog.categories.root();
    const metrics = await reader.metrics();
    const byName = new Map(metrics.map((m) => [m.descriptor.name, m]));
    const duration = byName.get('emporio.client.call.duration');
    const points = duration?.dataPoints.map((p) => p.attributes) ?? [];
    expect(points).toContainEqual({ 'emporio.method': 'orders.get', 'emporio.api': 'orders', 'emporio.outcome': 'ok' });
    expect(points).toContainEqual({ 'emporio.method': 'orders.get', 'emporio.api': 'orders', 'emporio.outcome': 'error', 'error.type': '404' });
    const errors = byName.get('emporio.client.error_answers')?.dataPoints ?? [];
    expect(errors.map((p) => [p.attributes['http.response.status_code'], p.value])).toEqual([[503, 1]]);
    const retries = byName.get('emporio.client.retries')?.dataPoints ?? [];
    expect(retries.map((p) => [p.attributes['emporio.method'], p.value])).toEqual([['orders.get', 1]]);
    const remaining = byName.get('emporio.client.rate_limit.remaining')?.dataPoints ?? [];
    expect(remaining.map((p) => p.attributes['emporio.api'])).toContain('catalog');
  });
});

describe('tracing options', () => {
  it('refuses a tracer or meter that is not one, and propagateTraceContext that is not a boolean, when the client is made', () => {
    const base = { baseUrl: 'https://api.marketplace.test', vendor: 'marketplace', token: 'tok' };
    expect(() => new MarketplaceClient({ ...base, tracer: {} as never })).toThrow(/tracer.*OpenTelemetry Tracer/);
    expect(() => new MarketplaceClient({ ...base, meter: { createCounter() {} } as never })).toThrow(/meter.*OpenTelemetry Meter/);
    expect(() => new MarketplaceClient({ ...base, propagateTraceContext: 'yes' as never })).toThrow(/propagateTraceContext/);
    expect(() => new MarketplaceClient({ ...base, tracer: undefined, meter: undefined, propagateTraceContext: undefined })).not.toThrow();
  });

  it('makes no span and loads nothing for a client without a tracer or meter', async () => {
    const { spans } = setup();
    const plain = new MarketplaceClient({ baseUrl: mock!.baseUrl, vendor: mock!.vendor, tokens: mock!.tokens, fetch: mock!.fetch });
    await plain.orders.get('DEMO-OPEN');
    expect(spans()).toHaveLength(0);
  });
});
