/**
 * `client.checkKeys()`: each merchant key tried once by a call that changes nothing (the keys
 * are per API, and a new key expires the old one).
 */
import {
  ApiError,
  AuthenticationError,
  EmporioError,
  InternalServerError,
  NotImplementedError,
  PermissionDeniedError,
  ResponseValidationError,
} from '../core/errors.js';
import type { ApiName } from '../core/options.js';
import type { RequestOptions } from '../core/transport.js';

/** One key's verdict: accepted (with the answer's request id), or refused or untried (with why). */
export type KeyCheck = { ok: true; requestId?: string | undefined } | { ok: false; error: EmporioError };

/** A member per merchant key the client has; keys it lacks are absent. */
export interface KeyReport {
  orders?: KeyCheck | undefined;
  products?: KeyCheck | undefined;
  cps?: KeyCheck | undefined;
}

/** Tries one key: resolves to the answer's request id, or rejects with the call's error. */
export type KeyProbe = (options: RequestOptions) => Promise<string | undefined>;

/**
 * Runs the probes of the keys the client has, side by side, each sent once (no retries unless
 * the caller asks). Resolves whatever the verdicts; rejects only when the caller aborts.
 */
export async function checkKeys(
  probes: Partial<Record<keyof KeyReport, KeyProbe>>,
  hasToken: (api: ApiName) => boolean,
  options: RequestOptions = {},
): Promise<KeyReport> {
  // An explicit `maxRetries: undefined` is the default here too: one try.
  const tried = { ...options, maxRetries: options.maxRetries ?? 0 };
  const report: KeyReport = {};
  await Promise.all(
    (Object.entries(probes) as [keyof KeyReport, KeyProbe][])
      .filter(([api]) => hasToken(api))
      .map(async ([api, probe]) => {
        try {
          report[api] = accepted(await probe(tried));
        } catch (error) {
          report[api] = verdict(error);
        }
      }),
  );
  if (options.signal?.aborted) throw options.signal.reason;
  // Members in a fixed order, whichever answer came first.
  const ordered: KeyReport = {};
  for (const api of ['orders', 'products', 'cps'] as const) if (report[api]) ordered[api] = report[api];
  return ordered;
}

const accepted = (requestId: string | undefined): KeyCheck => (requestId === undefined ? { ok: true } : { ok: true, requestId });

/** A failed probe: refused, or without an answer that tells; any other answer accepted the key. */
function verdict(error: unknown): KeyCheck {
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return { ok: false, error };
  // A 5xx (or a gateway's page) says nothing about the key.
  const told = (error instanceof ApiError && !(error instanceof InternalServerError || error instanceof NotImplementedError)) ||
    error instanceof ResponseValidationError;
  if (told) return accepted((error as ApiError | ResponseValidationError).requestId);
  if (error instanceof EmporioError) return { ok: false, error };
  return { ok: false, error: new EmporioError('the key could not be tried', { cause: error }) };
}
