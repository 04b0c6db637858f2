import ky, { type KyInstance, type Options as KyOptions, TimeoutError as KyTimeoutError } from 'ky';
import { BODY_TIMEOUT, BODY_TOO_LARGE, isDecodingFailure, type RawAnswer, readBody, requestIdOf, shownUrl } from './answer.js';
import { ConnectionError, type RequestTarget, ResponseTooLargeError, ResponseValidationError, TimeoutError } from './errors.js';
import type { HookCaller } from './hook-caller.js';
import { scrub, scrubHeaders } from './logger.js';
import type { ResolvedOptions } from './options.js';

/** One request on the wire, as the request path has prepared it (token in place, redirects not followed). */
export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  timeout: number;
  signal: AbortSignal | undefined;
  target: RequestTarget;
  /** The token the request carries: kept out of what hooks, logs and errors show. */
  token: string | undefined;
  /** 0 for the first attempt, then the retry's number (what `hooks.onRequest` is told). */
  attempt: number;
}

/**
 * One exchange with a server through ky: the request, its answer's body read within the
 * size and time bounds, the caller's hooks told, and every failure as its typed error.
 */
export class Exchange {
  readonly #ky: KyInstance;

  constructor(
    readonly options: Pick<ResolvedOptions, 'hooks' | 'maxResponseBytes' | 'fetch'>,
    readonly hooks: HookCaller,
    /** Debug lines are built only when someone reads them. */
    readonly debug: boolean,
  ) {
    // ky sends and times each attempt out; retries, redirects and errors are the request path's, once.
    this.#ky = ky.create({
      retry: 0,
      throwHttpErrors: false,
      redirect: 'manual',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async send({ method, url, headers, body, timeout, signal, target, token, attempt }: WireRequest): Promise<RawAnswer> {
    const { onRequest, onResponse } = this.options.hooks;
    const started = onResponse ? Date.now() : 0;
    // The URL as hooks and logs show it: made once, and only when one of them is there to see it.
    const shown = this.debug || onRequest || onResponse ? shownUrl(url, token) : '';
    if (this.debug) this.hooks.logger.debug(`request ${method} ${shown}`);
    if (onRequest) {
      const event = { method, url: shown, headers: scrubHeaders(Object.entries(headers), token), attempt };
      this.hooks.call('onRequest', () => onRequest(event), token);
    }
    let response: Response | undefined;
    try {
      // ky's own time-out (per attempt), and the caller's signal only when there is one:
      // any signal makes ky combine signals on every request, which costs.
      const init: KyOptions = { headers, timeout };
      // ky merges every option it is given on every request: only those that differ from its defaults.
      if (method !== 'GET') init.method = method;
      if (body !== undefined) init.body = body;
      if (signal) init.signal = signal;
      const deadline = Date.now() + timeout;
      response = await this.#ky(url, init);
      // ky's time-out ends with the headers; the body gets what is left of the attempt's time.
      const text = await readBody(response, this.options.maxResponseBytes, deadline, signal);
      if (onResponse) {
        const { status, headers: answered } = response;
        const event = { method, url: shown, status, headers: scrubHeaders(answered, token), durationMs: Date.now() - started };
        this.hooks.call('onResponse', () => onResponse(event), token);
      }
      return { status: response.status, headers: response.headers, text, url, token };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof KyTimeoutError) throw new TimeoutError(`no answer within ${timeout} ms`, target);
      if (error === BODY_TIMEOUT) throw new TimeoutError(`the answer's body did not arrive within ${timeout} ms`, target);
      if (response !== undefined) {
        const requestId = requestIdOf(response.headers, token);
        if (error === BODY_TOO_LARGE) throw new ResponseTooLargeError(this.options.maxResponseBytes, target, requestId);
        const encoding = response.headers.get('content-encoding');
        // A body that arrived but cannot be decoded would arrive the same way again: not retried.
        if (encoding && isDecodingFailure(error)) {
          throw new ResponseValidationError(`the answer's body could not be decoded (content-encoding: ${scrub(encoding, token)})`, {
            status: response.status,
            target,
            requestId,
          });
        }
      }
      const reason = error instanceof Error ? scrub(error.message, token) : 'network error';
      const cause = error instanceof Error && error.cause instanceof Error ? scrub(error.cause.message, token) : '';
      throw new ConnectionError(`connection failed: ${reason}${cause ? ` (${cause})` : ''}`, target);
    }
  }
}
