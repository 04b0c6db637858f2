import { RequestValidationError } from './errors.js';

/** A path parameter value: order codes are strings, catalog ids are integers. */
export type PathParam = string | number;

/**
 * A request path whose parameters are checked when the request is built, so a bad
 * one rejects the call's promise (nothing is sent) instead of throwing synchronously.
 */
export class RequestPath {
  constructor(
    /** The template's literal parts: tracing names the call after them (`/orders/{}`). */
    readonly strings: readonly string[],
    private readonly params: readonly PathParam[],
  ) {}

  build(): string {
    let out = this.strings[0] ?? '';
    for (let i = 0; i < this.params.length; i++) {
      out += encodePathParam(this.params[i] as PathParam, i) + (this.strings[i + 1] ?? '');
    }
    return out;
  }
}

/** Tagged template for request paths: path`/orders/${code}/accept`. */
export function path(strings: TemplateStringsArray, ...params: PathParam[]): RequestPath {
  return new RequestPath(strings, params);
}

const MAX_LENGTH = 256;

/**
 * Whitespace, control characters, separators and escapes: anything that could change
 * which resource a request reaches once the server decodes it.
 */
function hasForbiddenCharacter(value: string): boolean {
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x25 /* % */ || code === 0x2f /* / */ || code === 0x5c /* \ */) {
      return true;
    }
    if (code > 0x7f) ascii = false;
  }
  // ASCII whitespace is below 0x21, checked above; the rest of Unicode's needs the regex.
  return !ascii && /\s/.test(value);
}

/** `A-Z a-z 0-9 - _ . ! ~ * ' ( )`: the characters `encodeURIComponent` leaves as they are. */
const UNRESERVED = /^[\w.!~*'()-]+$/;

function invalid(index: number, reason: string): never {
  throw new RequestValidationError('Invalid path parameter', [{ path: [index], message: reason }]);
}

function encodePathParam(value: PathParam, index: number): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) invalid(index, `expected a non-negative integer, got ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') return invalid(index, `expected a string or integer, got ${typeof value}`);
  if (value.length === 0) invalid(index, 'must not be empty');
  if (value.length > MAX_LENGTH) invalid(index, `longer than ${MAX_LENGTH} characters`);
  if (hasForbiddenCharacter(value)) invalid(index, 'must not contain /, \\, %, whitespace or control characters');
  if (value === '.' || value.includes('..')) invalid(index, 'must not contain ..');
  // Most codes and ids need no encoding, and encoding costs more than this check.
  if (UNRESERVED.test(value)) return value;
  if (!value.isWellFormed()) invalid(index, 'must be well-formed Unicode');
  return encodeURIComponent(value);
}
