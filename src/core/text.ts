/** Small readers shared by the transport, the rate limiter and emporio/redis. */

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
