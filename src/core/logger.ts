import { isThenable } from './time.js';

/** Where the SDK's debug lines go. Any subset of the console's methods. */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info?: ((message: string, details?: Record<string, unknown>) => void) | undefined;
  warn?: ((message: string, details?: Record<string, unknown>) => void) | undefined;
  error?: ((message: string, details?: Record<string, unknown>) => void) | undefined;
}

export const silentLogger: Logger = { debug() {} };

/**
 * The caller's logger made harmless: a method that throws, rejects or is not a function changes
 * nothing (a log line is never worth a call's outcome).
 */
export function safeLogger(logger: Logger): Logger {
  const line = (level: keyof Logger) => (message: string, details?: Record<string, unknown>) => {
    try {
      const method = logger[level];
      if (typeof method !== 'function') return;
      const result: unknown = method.call(logger, message, details);
      if (isThenable(result)) Promise.resolve(result).catch(() => {});
    } catch {
      // Dropped: see above.
    }
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** What was thrown, as one line, whatever it is: an object without `toString`, a getter that throws. */
export function thrownText(value: unknown): string {
  try {
    return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  } catch {
    return 'a value that cannot be shown as text';
  }
}

const SECRET_QUERY_KEYS = new Set(['access_token', 'api_key', 'password', 'token', 'username']);

/**
 * A URL with its secret query parameters (legacy v2 carries the token there) replaced by
 * `[redacted]`. Every other character stays as it was: re-encoding the query would turn a `+`
 * or a space of a token echoed elsewhere in it into a form the scrub no longer recognises.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const end = hash === -1 ? url.length : hash;
  let changed = false;
  const parts = url.slice(q + 1, end).split('&');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    if (SECRET_QUERY_KEYS.has(formDecoded(key).toLowerCase())) {
      parts[i] = `${key}=%5Bredacted%5D`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${parts.join('&')}${url.slice(end)}` : url;
}

/** A query key as a form parser reads it (`+` a space, percent-escapes decoded). */
function formDecoded(key: string): string {
  if (!key.includes('%') && !key.includes('+')) return key;
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
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
  // A mix of forms (`%20` for a space beside a literal `+`) read both ways a parser may read it.
  if (text.includes('%') && (percentDecoded(text, true).includes(token) || percentDecoded(text, false).includes(token))) return '[redacted]';
  return text;
}

/** Each token's forms, made once (a few tokens per process; bounded all the same). */
const formsOfToken = new Map<string, ReadonlySet<string>>();

function tokenForms(token: string): ReadonlySet<string> {
  let forms = formsOfToken.get(token);
  if (forms === undefined) {
    const made = new Set([token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2), queryEncoded(token)]);
    // Shorter forms would scrub ordinary words.
    if (token.length >= 8 && /^[\x20-\x7e]*$/.test(token)) made.add(btoa(token).replace(/=+$/, ''));
    if (formsOfToken.size >= 64) formsOfToken.delete(formsOfToken.keys().next().value as string);
    formsOfToken.set(token, made);
    forms = made;
  }
  return forms;
}

/** The token as a URL parser writes it into a query: spaces, quotes, `#`, `<`, `>` and non-ASCII escaped, `+` kept. */
function queryEncoded(token: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(token)) {
    out += byte <= 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x23 || byte === 0x27 || byte === 0x3c || byte === 0x3e
      ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
      : String.fromCharCode(byte);
  }
  return out;
}

/** `text` percent-decoded; with `plusIsSpace`, as a form parser reads it. */
function percentDecoded(text: string, plusIsSpace: boolean): string {
  const plain = plusIsSpace ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}
