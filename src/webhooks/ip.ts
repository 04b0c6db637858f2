/**
 * Source-address verification. The order webhook carries no signature; the source
 * address is the only proof of origin (the webhook documentation).
 *
 * Address forms, decided deliberately:
 * - IPv4 dotted quad only, each part 0..255 in decimal without leading zeros
 *   (`010.0.0.1` is refused: some parsers read it as octal).
 * - IPv6 in any RFC 4291 text form, `::` compression and a trailing dotted quad included.
 * - IPv4-mapped IPv6 (`::ffff:185.6.76.1`, or its hex form `::ffff:b906:4c01`) is the
 *   IPv4 address it maps, and is matched against the IPv4 ranges (dual-stack servers
 *   report IPv4 peers that way), as well as against IPv6 ranges that contain it.
 * - Brackets (`[2a03:e40::1]`, the URL form) are accepted around IPv6 only; a port is not.
 * - A zone id (`fe80::1%eth0`) names the local interface, not part of the address: it is
 *   ignored and the address is matched. It never widens a match, since the bits compared
 *   are the same; an empty zone (`fe80::1%`) is malformed.
 * - Anything else, including non-strings, is `false`; nothing here throws.
 */

/** The documented webhook source ranges (the webhook documentation), IPv4 then IPv6. */
export const WEBHOOK_SOURCE_RANGES: readonly string[] = Object.freeze([
  '185.6.76.0/22',
  '3.73.204.153/32',
  '3.72.204.195/32',
  '3.67.183.221/32',
  '63.34.193.172/32',
  '54.195.53.34/32',
  '108.129.50.199/32',
  '2a03:e40::/32',
]);

/** Ranges in numeric form: `v4` holds (network, mask) pairs, `v6` holds 4 network words then 4 mask words per range. */
export interface CompiledRanges {
  readonly v4: Int32Array;
  readonly v6: Int32Array;
}

const compiledCache = new WeakMap<object, CompiledRanges>();
const EMPTY: CompiledRanges = { v4: new Int32Array(0), v6: new Int32Array(0) };
// The list of the previous call: most callers pass the same array every time.
let lastRanges: readonly string[] | undefined;
let lastCompiled: CompiledRanges = EMPTY;

// Scratch space for the one address being checked (parsing is synchronous).
const words = new Int32Array(4);
const groups = new Uint16Array(8);

/**
 * True when `ip` lies in one of `ranges` (CIDR strings; default {@link WEBHOOK_SOURCE_RANGES}).
 * A list is compiled once and cached by array identity: pass the same array each time,
 * and a new array (not a mutated one) when the ranges change. Malformed entries in
 * `ranges` match nothing; malformed `ip` is `false`.
 */
export function isAllowedSourceIp(ip: string, ranges: readonly string[] = WEBHOOK_SOURCE_RANGES): boolean {
  if (typeof ip !== 'string') return false;
  if (ranges !== lastRanges) {
    lastCompiled = compileRanges(ranges);
    lastRanges = ranges;
  }
  return matchCompiled(ip, lastCompiled);
}

/** The cached numeric form of `ranges`; with `strict`, a malformed entry is a TypeError naming it. */
export function compileRanges(ranges: readonly string[], strict = false): CompiledRanges {
  if (typeof ranges !== 'object' || ranges === null) return EMPTY;
  let compiled = compiledCache.get(ranges);
  if (compiled !== undefined && !strict) return compiled;
  const v4: number[] = [];
  const v6: number[] = [];
  for (const range of Array.isArray(ranges) ? ranges : []) {
    if (!addRange(range, v4, v6) && strict) throw new TypeError(`not a CIDR range: ${JSON.stringify(range)}`);
  }
  compiled = { v4: Int32Array.from(v4), v6: Int32Array.from(v6) };
  compiledCache.set(ranges, compiled);
  return compiled;
}

/**
 * The service's published JSON form `{ ipv4: [...], ipv6: [...] }` as a range list for
 * {@link isAllowedSourceIp} and `allowedRanges`. A malformed entry is a TypeError, so a
 * bad download fails loudly instead of silently refusing every delivery.
 */
export function sourceRangesFromJson(json: { ipv4?: readonly string[] | undefined; ipv6?: readonly string[] | undefined }): readonly string[] {
  if (typeof json !== 'object' || json === null) throw new TypeError('expected an object { ipv4, ipv6 }');
  const out: string[] = [];
  for (const family of ['ipv4', 'ipv6'] as const) {
    const list = json[family];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new TypeError(`${family} must be an array of CIDR strings`);
    for (const range of list) {
      if (!addRange(range, [], [])) throw new TypeError(`not a CIDR range in ${family}: ${JSON.stringify(range)}`);
      const isV6 = range.includes(':');
      if (isV6 !== (family === 'ipv6')) throw new TypeError(`${family} holds a range of the other family: ${range}`);
      out.push(range.trim());
    }
  }
  // An unexpected shape (other key names) would otherwise refuse every delivery without a word.
  if (out.length === 0) throw new TypeError('expected { ipv4, ipv6 } with at least one CIDR range');
  return Object.freeze(out);
}

function matchCompiled(ip: string, compiled: CompiledRanges): boolean {
  let start = 0;
  let end = ip.length;
  if (end === 0 || end > 64) return false;
  if (ip.charCodeAt(0) === 91 /* [ */) {
    if (ip.charCodeAt(end - 1) !== 93 /* ] */) return false;
    start = 1;
    end -= 1;
  }
  const colon = ip.indexOf(':', start);
  if (colon === -1 || colon >= end) {
    if (start !== 0) return false; // brackets are for IPv6 only
    const v4 = parseV4(ip, 0, end);
    return v4 !== undefined && matchV4(v4, compiled.v4);
  }
  const zone = ip.indexOf('%', start);
  if (zone !== -1 && zone < end) {
    if (zone === end - 1) return false;
    end = zone;
  }
  if (!parseV6(ip, start, end)) return false;
  if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff && matchV4(words[3]!, compiled.v4)) return true;
  return matchV6(compiled.v6);
}

function matchV4(address: number, ranges: Int32Array): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if ((address & ranges[i + 1]!) === ranges[i]) return true;
  }
  return false;
}

function matchV6(ranges: Int32Array): boolean {
  for (let i = 0; i < ranges.length; i += 8) {
    if (
      (words[0]! & ranges[i + 4]!) === ranges[i] &&
      (words[1]! & ranges[i + 5]!) === ranges[i + 1] &&
      (words[2]! & ranges[i + 6]!) === ranges[i + 2] &&
      (words[3]! & ranges[i + 7]!) === ranges[i + 3]
    ) {
      return true;
    }
  }
  return false;
}

/** Parses one CIDR (or a bare address, as a /32 or /128) and appends it; false when malformed. */
function addRange(range: unknown, v4: number[], v6: number[]): boolean {
  if (typeof range !== 'string') return false;
  const text = range.trim();
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const isV6 = address.includes(':');
  const bits = isV6 ? 128 : 32;
  let prefix = bits;
  if (slash !== -1) {
    const digits = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(digits)) return false;
    prefix = Number(digits);
    if (prefix > bits) return false;
  }
  if (!isV6) {
    const network = parseV4(address, 0, address.length);
    if (network === undefined) return false;
    const mask = prefixMask(prefix);
    v4.push(network & mask, mask);
    return true;
  }
  if (address.includes('%') || !parseV6(address, 0, address.length)) return false;
  // A range inside ::ffff:0:0/96 is an IPv4 range: mapped addresses are matched as IPv4.
  if (prefix >= 96 && words[0] === 0 && words[1] === 0 && words[2] === 0xffff) {
    const mask = prefixMask(prefix - 96);
    v4.push(words[3]! & mask, mask);
    return true;
  }
  const masks = [0, 1, 2, 3].map((i) => prefixMask(Math.min(32, Math.max(0, prefix - 32 * i))));
  v6.push(...masks.map((mask, i) => words[i]! & mask), ...masks);
  return true;
}

function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (-1 << (32 - prefix)) | 0;
}

/** Dotted quad in `text[start, end)` as a signed 32-bit int; undefined when malformed. */
function parseV4(text: string, start: number, end: number): number | undefined {
  let address = 0;
  let parts = 0;
  let i = start;
  while (parts < 4) {
    const partStart = i;
    let part = 0;
    while (i < end) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      part = part * 10 + digit;
      i++;
    }
    const length = i - partStart;
    if (length === 0 || length > 3 || part > 255 || (length > 1 && text.charCodeAt(partStart) === 48)) return undefined;
    address = (address << 8) | part;
    parts++;
    if (parts < 4) {
      if (i >= end || text.charCodeAt(i) !== 46 /* . */) return undefined;
      i++;
    }
  }
  return i === end ? address : undefined;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** IPv6 text in `text[start, end)` into `words`; false when malformed. */
function parseV6(text: string, start: number, end: number): boolean {
  let count = 0;
  let gap = -1; // index in `groups` where `::` stands
  let i = start;
  if (text.charCodeAt(i) === 58 /* : */) {
    if (text.charCodeAt(i + 1) !== 58 || i + 1 >= end) return false;
    gap = 0;
    i += 2;
  }
  while (i < end) {
    if (count === 8) return false;
    const groupStart = i;
    let value = 0;
    while (i < end) {
      const digit = hexValue(text.charCodeAt(i));
      if (digit < 0) break;
      value = (value << 4) | digit;
      i++;
    }
    if (i < end && text.charCodeAt(i) === 46 /* . */) {
      // Trailing dotted quad: the last 32 bits.
      if (count > 6) return false;
      const v4 = parseV4(text, groupStart, end);
      if (v4 === undefined) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      i = end;
      break;
    }
    const digits = i - groupStart;
    if (digits === 0 || digits > 4) return false;
    groups[count++] = value;
    if (i === end) break;
    if (text.charCodeAt(i) !== 58) return false;
    i++;
    if (i < end && text.charCodeAt(i) === 58) {
      if (gap !== -1) return false;
      gap = count;
      i++;
    } else if (i === end) {
      return false;
    }
  }
  if (gap === -1) {
    if (count !== 8) return false;
  } else {
    if (count > 7) return false;
    const tail = count - gap;
    for (let k = 1; k <= tail; k++) groups[8 - k] = groups[count - k]!;
    for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  }
  words[0] = (groups[0]! << 16) | groups[1]!;
  words[1] = (groups[2]! << 16) | groups[3]!;
  words[2] = (groups[4]! << 16) | groups[5]!;
  words[3] = (groups[6]! << 16) | groups[7]!;
  return true;
}
