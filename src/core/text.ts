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

/** A header value fetch accepts: Latin-1, no NUL, CR or LF (RFC 9110 field-value). */
export function isHeaderValue(value: string): boolean {
  return !/[\0\r\n]|[^\0-\xff]/.test(value);
}
