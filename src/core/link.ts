/**
 * RFC 8288 Link header parsing without regular expressions: one left-to-right scan,
 * linear in the header's length whatever it contains (a backtracking regex here was
 * a real denial-of-service bug in a peer library).
 */
export function parseLinkHeader(header: string | null | undefined): Map<string, string> {
  const links = new Map<string, string>();
  if (!header) return links;
  const length = Math.min(header.length, 64 * 1024);
  let i = 0;
  while (i < length) {
    const open = header.indexOf('<', i);
    if (open === -1 || open >= length) break;
    const close = header.indexOf('>', open + 1);
    if (close === -1 || close >= length) break;
    const target = header.slice(open + 1, close).trim();
    // Parameters run to the next comma that is outside a quoted string.
    let end = close + 1;
    let quoted = false;
    while (end < length) {
      const ch = header.charCodeAt(end);
      if (ch === 34 /* " */) quoted = !quoted;
      else if (ch === 44 /* , */ && !quoted) break;
      end++;
    }
    for (const rel of relsOf(header.slice(close + 1, end))) {
      if (!links.has(rel)) links.set(rel, target);
    }
    i = end + 1;
  }
  return links;
}

function relsOf(params: string): string[] {
  for (const part of splitOutsideQuotes(params, 59 /* ; */)) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value.toLowerCase().split(/\s+/).filter(Boolean);
  }
  return [];
}

/** Splits on `separator` where it is not inside a quoted string (`title="a; b"`). */
function splitOutsideQuotes(text: string, separator: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) quoted = !quoted;
    else if (ch === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
