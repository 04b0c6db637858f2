/** Small text rules shared by the transport, the options, OAuth, the rate limiter and emporio/redis. */

/** The JSON value of `text`, or undefined when it is absent, empty or not JSON. */
export function tryParseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An error as one line of a log message. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A header value Node's fetch sends: tab, visible ASCII and 0x80-0xFF only. It refuses every
 * other control character (NUL, CR, LF, 0x01-0x08, 0x0B-0x1F, DEL) and anything past Latin-1.
 */
export function isHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}
