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

/**
 * Headers that carry credentials: shown as `[redacted]`, and dropped from a request that
 * a redirect sends to another origin.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
]);

/**
 * Headers as a plain object for hooks: credentials replaced by `[redacted]`, and the token
 * scrubbed from every other value (a server may echo it in a Location or WWW-Authenticate).
 */
export function scrubHeaders(
  headers: Headers | Iterable<[string, string]>,
  token: string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (value: string, key: string) => {
    const name = key.toLowerCase();
    out[name] = cleanHeader(name, value, token);
  };
  if (headers instanceof Headers) headers.forEach(add);
  else for (const [key, value] of headers) add(value, key);
  return out;
}

/** One header value as hooks, errors and responses show it: a credential header whole, any other without the token. */
function cleanHeader(name: string, value: string, token: string | undefined): string {
  return CREDENTIAL_HEADERS.has(name) ? '[redacted]' : scrub(value, token);
}

/** `headers` itself when nothing needs hiding; otherwise a copy by the same rule as {@link scrubHeaders}. */
export function scrubbedHeaders(headers: Headers, token: string | undefined): Headers {
  let copy: Headers | undefined;
  headers.forEach((value, name) => {
    const clean = cleanHeader(name, value, token);
    if (clean === value) return;
    copy ??= new Headers(headers);
    copy.set(name, clean);
  });
  return copy ?? headers;
}

/**
 * `text` without `token`: as is, percent-encoded (a URL's forms) and base64 (a Basic
 * credential). A text that still holds it in another percent-encoding is withheld whole.
 */
export function scrub(text: string, token: string | undefined): string {
  if (!token) return text;
  for (const form of tokenForms(token)) {
    if (text.includes(form)) text = text.split(form).join('[redacted]');
  }
  if (text.includes('%') && percentDecoded(text).includes(token)) return '[redacted]';
  return text;
}

/** Each token's forms, made once (a few tokens per process; bounded all the same). */
const formsOfToken = new Map<string, ReadonlySet<string>>();

function tokenForms(token: string): ReadonlySet<string> {
  let forms = formsOfToken.get(token);
  if (forms === undefined) {
    const made = new Set([token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2)]);
    // Shorter forms would scrub ordinary words.
    if (token.length >= 8 && /^[\x20-\x7e]*$/.test(token)) made.add(btoa(token).replace(/=+$/, ''));
    if (formsOfToken.size >= 64) formsOfToken.delete(formsOfToken.keys().next().value as string);
    formsOfToken.set(token, made);
    forms = made;
  }
  return forms;
}

function percentDecoded(text: string): string {
  const plain = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}
