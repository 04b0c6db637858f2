/**
 * A deliberately plain reference for source-address checks: string splitting and BigInt
 * arithmetic, written from RFC 4291 and document 1's rules rather than for speed. The
 * property tests compare the SDK against it; the benchmark uses it as the naive baseline.
 */

const V4_PART = /^(0|[1-9]\d{0,2})$/;
const V6_GROUP = /^[0-9a-f]{1,4}$/i;

/** A dotted quad as a number, or undefined (no leading zeros, each part 0..255). */
export function parseV4Reference(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!V4_PART.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** Any RFC 4291 text form (with `::` and a trailing dotted quad) as a 128-bit number. */
export function parseV6Reference(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (part: string): string[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    const last = groups[groups.length - 1] as string;
    if (last.includes('.')) {
      const v4 = parseV4Reference(last);
      if (v4 === undefined) return undefined;
      groups.splice(groups.length - 1, 1, (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
    }
    return groups.every((g) => V6_GROUP.test(g)) ? groups : undefined;
  };
  const head = toGroups(halves[0] as string);
  const tail = halves.length === 2 ? toGroups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  // A dotted quad may only end the address.
  if (halves.length === 2 && (halves[0] as string).includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

interface ReferenceRange {
  v6: boolean;
  network: bigint;
  prefix: number;
}

function parseRange(cidr: string): ReferenceRange | undefined {
  const [address = '', prefixText, extra] = cidr.trim().split('/');
  if (extra !== undefined) return undefined;
  const v6 = address.includes(':');
  const bits = v6 ? 128 : 32;
  const prefix = prefixText === undefined ? bits : V4_PART.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= bits)) return undefined;
  const network = v6 ? parseV6Reference(address) : parseV4Reference(address);
  if (network === undefined) return undefined;
  return { v6, network, prefix };
}

function inRange(address: bigint, bits: number, range: ReferenceRange): boolean {
  const shift = BigInt(bits - range.prefix);
  return address >> shift === range.network >> shift;
}

/**
 * The same contract as `isAllowedSourceIp`: IPv4, IPv6 (brackets and a zone id allowed),
 * IPv4-mapped IPv6 matched against the IPv4 ranges; anything malformed is false.
 */
export function isAllowedReference(ip: string, ranges: readonly string[]): boolean {
  if (typeof ip !== 'string' || ip.length === 0 || ip.length > 64) return false;
  const parsedRanges = ranges.map(parseRange).filter((r): r is ReferenceRange => r !== undefined);
  if (!ip.includes(':')) {
    const v4 = parseV4Reference(ip);
    return v4 !== undefined && parsedRanges.some((r) => !r.v6 && inRange(v4, 32, r));
  }
  let text = ip;
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) return false;
    text = text.slice(1, -1);
  }
  const zone = text.indexOf('%');
  if (zone !== -1) {
    if (zone === text.length - 1) return false;
    text = text.slice(0, zone);
  }
  const v6 = parseV6Reference(text);
  if (v6 === undefined) return false;
  if (v6 >> 32n === 0xffffn) {
    const v4 = v6 & 0xffff_ffffn;
    if (parsedRanges.some((r) => !r.v6 && inRange(v4, 32, r))) return true;
  }
  return parsedRanges.some((r) => r.v6 && inRange(v6, 128, r));
}
