import type { Answer } from '../core/answer.js';
import type { ApiName, ResolvedOptions } from '../core/options.js';
import type { OpenTelemetryAttributes, OpenTelemetrySpan } from '../core/otel-types.js';
import type { RequestPath } from '../core/paths.js';
import type { RequestSpec } from '../core/request.js';
import type { ClientTelemetry } from '../core/client-telemetry.js';
import type { CallTelemetry } from '../core/telemetry.js';
import { OPERATIONS } from './operations.js';

/**
 * Tracing and metrics of the client's calls, loaded only with the `tracer` or `meter` option.
 * Only the application's own OpenTelemetry objects are called: nothing imports `@opentelemetry/api`.
 * Attributes carry no URL, query, body, header or token: the path template, the host, statuses,
 * class names and the service's request id.
 */

/** `SpanKind.CLIENT` and `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

interface Operation {
  name: string;
  template: string | undefined;
}

/** The client's spans and instruments. */
export function clientTelemetry(options: ResolvedOptions): ClientTelemetry {
  const { tracer, meter, propagateTraceContext } = options;
  const operationOf = operationFinder(options);
  const servers = { base: server(options.baseUrl), legacy: options.legacyBaseUrl === undefined ? undefined : server(options.legacyBaseUrl) };
  const instruments = meter && {
    duration: meter.createHistogram('emporio.client.call.duration', { unit: 's', description: 'Duration of each call the client makes, retries and rate-limit waits included' }),
    errorAnswers: meter.createCounter('emporio.client.error_answers', { description: 'Answers with status 429 or 5xx, retried ones included' }),
    retries: meter.createCounter('emporio.client.retries', { description: 'Requests sent again after a transient failure' }),
    rateLimitWait: meter.createHistogram('emporio.client.rate_limit.wait', { unit: 's', description: 'Time requests were held by the rate limiter before sending' }),
  };
  /** The latest X-RateLimit-Remaining each API's answers carried. */
  const remaining = new Map<ApiName, number>();
  meter?.createObservableGauge('emporio.client.rate_limit.remaining', { description: 'Requests left in the rate-limit window, as the latest answer of each API said' })
    .addCallback((result) => {
      for (const [api, left] of remaining) result.observe(left, { 'emporio.api': api });
    });

  return {
    call<T>(spec: RequestSpec<unknown>, run: (call: CallTelemetry) => Promise<Answer<T>>): Promise<Answer<T>> {
      const { name, template } = operationOf(spec);
      const api = spec.api;
      const host = api === 'legacyV2' ? servers.legacy : servers.base;
      const started = performance.now();
      const attributes: OpenTelemetryAttributes = { 'http.request.method': spec.method, 'emporio.api': api };
      if (template !== undefined) attributes['url.template'] = template;
      if (host !== undefined) {
        attributes['server.address'] = host.address;
        if (host.port !== undefined) attributes['server.port'] = host.port;
      }
      const measured: OpenTelemetryAttributes = { 'emporio.method': name, 'emporio.api': api };

      const traced = (span: OpenTelemetrySpan | undefined): Promise<Answer<T>> => {
        let sent = 0;
        const countAnswer = (error: unknown) => {
          const status = statusOf(error);
          if (status !== undefined && (status === 429 || status >= 500)) {
            instruments?.errorAnswers.add(1, { ...measured, 'http.response.status_code': status });
          }
          const headers = (error as { headers?: unknown } | undefined)?.headers;
          if (headers instanceof Headers) noteRemaining(api, headers, remaining);
        };
        const call: CallTelemetry = {
          sending(headers, atApi) {
            sent++;
            if (propagateTraceContext && atApi && span) {
              const traceparent = traceparentOf(span);
              if (traceparent !== undefined) headers.traceparent = traceparent;
            }
          },
          retrying(attempt, delayMs, error) {
            const reason = errorType(error);
            countAnswer(error);
            instruments?.retries.add(1, { ...measured, 'emporio.retry.reason': reason });
            span?.addEvent('retry', { 'emporio.retry.attempt': attempt, 'emporio.retry.delay_ms': delayMs, 'emporio.retry.reason': reason });
          },
          waiting(ms, reason) {
            instruments?.rateLimitWait.record(ms / 1000, { 'emporio.api': api, 'emporio.rate_limit.reason': reason });
            span?.addEvent('rate_limit.wait', { 'emporio.rate_limit.wait_ms': ms, 'emporio.rate_limit.reason': reason });
          },
        };
        const finish = (status: number | undefined, requestId: string | undefined, error: unknown) => {
          const ended: OpenTelemetryAttributes = {};
          if (status !== undefined) ended['http.response.status_code'] = status;
          if (sent > 1) ended['http.request.resend_count'] = sent - 1;
          if (requestId !== undefined) ended['emporio.request_id'] = requestId;
          const outcome: OpenTelemetryAttributes = { ...measured, 'emporio.outcome': error === undefined ? 'ok' : 'error' };
          if (error !== undefined) {
            const type = errorType(error);
            ended['error.type'] = type;
            outcome['error.type'] = type;
          }
          instruments?.duration.record((performance.now() - started) / 1000, outcome);
          if (span) {
            span.setAttributes(ended);
            if (error !== undefined) span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
            span.end();
          }
        };
        let running: Promise<Answer<T>>;
        try {
          running = run(call);
        } catch (error) {
          running = Promise.reject(error);
        }
        return running.then(
          (answer) => {
            noteRemaining(api, answer.headers, remaining);
            // response() scrubs the token from every header: only worth it when there is a request id.
            finish(answer.status, answer.headers.has('x-request-id') ? answer.response().requestId : undefined, undefined);
            return answer;
          },
          (error: unknown) => {
            countAnswer(error);
            const requestId = (error as { requestId?: unknown } | undefined)?.requestId;
            finish(statusOf(error), typeof requestId === 'string' ? requestId : undefined, error ?? new Error('undefined thrown'));
            throw error;
          },
        );
      };
      return tracer ? tracer.startActiveSpan(name, { kind: SPAN_KIND_CLIENT, attributes }, traced) : traced(undefined);
    },
  };
}

/** A base URL's host and, when it is not the scheme's default, its port. */
function server(base: string): { address: string; port: number | undefined } {
  const url = new URL(base);
  return { address: url.hostname, port: url.port === '' ? undefined : Number(url.port) };
}

/** The answer's (or the error's) HTTP status, when it had one. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** `error.type`: the status of an answer that was not a success, else the error's class name (`TimeoutError`, `AbortError`). */
function errorType(error: unknown): string {
  const status = statusOf(error);
  if (status !== undefined) return String(status);
  return error instanceof Error ? error.name : typeof error;
}

function noteRemaining(api: ApiName, headers: Headers, remaining: Map<ApiName, number>): void {
  const left = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN);
  if (Number.isFinite(left)) remaining.set(api, left);
}

/** The W3C `traceparent` of the client span, for the service to continue the trace. */
function traceparentOf(span: OpenTelemetrySpan): string | undefined {
  const { traceId, spanId, traceFlags } = span.spanContext();
  if (!/^[0-9a-f]{32}$/.test(traceId) || !/^[0-9a-f]{16}$/.test(spanId) || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The method a request description belongs to, from its HTTP method and path: a template's
 * literal parts (`/merchants/ecommerce/orders/{}`), a fixed path, or a next page's URL.
 */
function operationFinder(options: ResolvedOptions): (spec: RequestSpec<unknown>) => Operation {
  const byMethod = new Map<string, { pattern: RegExp; template: string; name: string; literal: number }[]>();
  for (const [method, template, name] of OPERATIONS) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]*\}/g, '[^/]+')}$`);
    const literal = template.replace(/\{[^}]*\}/g, '').length;
    const list = byMethod.get(method) ?? [];
    list.push({ pattern, template, name, literal });
    byMethod.set(method, list);
  }
  // A fixed segment wins over a parameter: /categories/root before /categories/{id}.
  for (const list of byMethod.values()) list.sort((a, b) => b.literal - a.literal);
  const basePaths = { base: new URL(options.baseUrl).pathname.replace(/\/+$/, ''), legacy: options.legacyBaseUrl === undefined ? '' : new URL(options.legacyBaseUrl).pathname.replace(/\/+$/, '') };
  /** Templates seen (finitely many: one per call site), by method and path. */
  const known = new Map<string, Operation>();

  const find = (method: string, path: string, api: ApiName): Operation => {
    for (const candidate of byMethod.get(method) ?? []) {
      if (candidate.pattern.test(path)) return { name: candidate.name, template: candidate.template };
    }
    return { name: `${api} ${method}`, template: undefined };
  };

  const findBuilt = (path: RequestPath, method: string, api: ApiName): Operation => {
    try {
      return find(method, path.build(), api);
    } catch {
      // A parameter the call refuses: it sends nothing.
      return { name: `${api} ${method}`, template: undefined };
    }
  };

  return (spec) => {
    const { path, method, api } = spec;
    if (typeof path !== 'string' || path.startsWith('/')) {
      const key = `${method} ${typeof path === 'string' ? path : path.strings.join('{}')}`;
      let operation = known.get(key);
      if (operation === undefined) {
        operation = find(method, key.slice(method.length + 1), api);
        // A parameter that picks the endpoint (`/orders/{}/${action}`) is matched on the built path, every time.
        if (operation.template === undefined && typeof path !== 'string') return findBuilt(path, method, api);
        known.set(key, operation);
      }
      return operation;
    }
    // A next page's link or another absolute URL: its path, less the base's own.
    let pathname: string;
    try {
      pathname = new URL(path).pathname;
    } catch {
      return { name: `${api} ${method}`, template: undefined };
    }
    const basePath = api === 'legacyV2' ? basePaths.legacy : basePaths.base;
    return find(method, basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname, api);
  };
}
