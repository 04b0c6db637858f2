/** Small text rules shared by the transport, the options, OAuth, the rate limiter, emporio/redis and the CLI. */

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

/**
 * Text for a terminal: each control character (C0, DEL, C1) shown escaped as `\uXXXX`, so what
 * a server or a feed sent cannot move the cursor, retitle or clear the terminal, yet stays visible.
 */
export function escapeControlCharacters(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A token without a leading `Bearer ` (any case): copied from a curl command or an `Authorization`
 * header it would otherwise be sent as `Bearer Bearer ...`. No token of the service starts so.
 */
export function withoutBearerPrefix(token: string): string {
  return token.replace(/^\s*bearer(\s+|$)/i, '');
}
