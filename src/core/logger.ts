/** Where the SDK's debug lines go. Any subset of the console's methods. */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { debug() {} };

const SECRET_QUERY_KEYS = new Set(['access_token', 'api_key', 'password', 'token', 'username']);

/** A URL with its secret query parameters (legacy v2 carries the token there) replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY_KEYS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

/** Headers as a plain object, with credentials replaced by `[redacted]`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = key === 'authorization' || key === 'cookie' || key === 'x-api-key' ? '[redacted]' : value;
  });
  return out;
}
