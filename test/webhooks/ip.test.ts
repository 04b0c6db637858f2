import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAllowedSourceIp, sourceRangesFromJson, WEBHOOK_SOURCE_RANGES } from 'emporio/webhooks';

describe('WEBHOOK_SOURCE_RANGES', () => {
  it('holds every range of document 1, IPv4 and IPv6', () => {
    expect([...WEBHOOK_SOURCE_RANGES]).toEqual([
      '185.6.76.0/22',
      '3.73.204.153/32',
      '3.72.204.195/32',
      '3.67.183.221/32',
      '63.34.193.172/32',
      '54.195.53.34/32',
      '108.129.50.199/32',
      '2a03:e40::/32',
    ]);
    expect(Object.isFrozen(WEBHOOK_SOURCE_RANGES)).toBe(true);
  });
});

describe('isAllowedSourceIp at and around every range edge', () => {
  // [address, allowed]: first, last, one below, one above for each documented range.
  const table: [string, boolean][] = [
    ['185.6.76.0', true],
    ['185.6.79.255', true],
    ['185.6.77.128', true],
    ['185.6.75.255', false],
    ['185.6.80.0', false],
    ['3.73.204.153', true],
    ['3.73.204.152', false],
    ['3.73.204.154', false],
    ['3.72.204.195', true],
    ['3.72.204.194', false],
    ['3.72.204.196', false],
    ['3.67.183.221', true],
    ['3.67.183.220', false],
    ['3.67.183.222', false],
    ['63.34.193.172', true],
    ['63.34.193.171', false],
    ['63.34.193.173', false],
    ['54.195.53.34', true],
    ['54.195.53.33', false],
    ['54.195.53.35', false],
    ['108.129.50.199', true],
    ['108.129.50.198', false],
    ['108.129.50.200', false],
    // IPv6 2a03:e40::/32
    ['2a03:e40::', true],
    ['2a03:e40::1', true],
    ['2a03:e40:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2a03:e3f:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['2a03:e41::', false],
    ['2A03:0E40:0000:0000:0000:0000:0000:0001', true],
    ['2a03:e40:0:0:0:0:0:0', true],
    ['2a03:e40::185.6.76.1', true],
    // IPv4-mapped IPv6, dotted and hex
    ['::ffff:185.6.76.0', true],
    ['::ffff:185.6.79.255', true],
    ['::ffff:185.6.75.255', false],
    ['::ffff:185.6.80.0', false],
    ['::FFFF:3.67.183.221', true],
    ['0:0:0:0:0:ffff:3.67.183.221', true],
    ['::ffff:b906:4c00', true],
    ['::ffff:b906:4bff', false],
    ['::ffff:b906:4fff', true],
    ['::ffff:b906:5000', false],
    // IPv4-compatible (deprecated) and other embeddings are not IPv4-mapped
    ['::185.6.76.1', false],
    ['64:ff9b::185.6.76.1', false],
    // brackets and zone ids
    ['[2a03:e40::1]', true],
    ['[::ffff:185.6.76.1]', true],
    ['2a03:e40::1%eth0', true],
    ['[2a03:e40::1%25eth0]', true],
    ['2a03:e41::1%eth0', false],
  ];

  it.each(table)('%s → %s', (address, allowed) => {
    expect(isAllowedSourceIp(address)).toBe(allowed);
  });

  it.each([
    '',
    ' ',
    '185.6.76',
    '185.6.76.1.1',
    '185.6.76.256',
    '185.6.076.1',
    '185.6.76.-1',
    '185.6.76.1 ',
    ' 185.6.76.1',
    '185.6.76.1/32',
    '185.6.76.1:443',
    '[185.6.76.1]',
    '185.6.76.1%eth0',
    '185.6.76.0x1',
    '１８５.6.76.1',
    '2a03:e40::1%',
    '[2a03:e40::1',
    '2a03:e40::1]',
    '[2a03:e40::1]:443',
    '2a03:e40::1::2',
    '2a03:e40:::1',
    ':2a03:e40::1',
    '2a03:e40::1:',
    '2a03:e40:1:2:3:4:5:6:7',
    '2a03:e40:1:2:3:4:5',
    '2a03:e40::12345',
    '2a03:g40::1',
    '::ffff:185.6.76.256',
    '::ffff:185.6.76',
    '::ffff:185.6.76.1:1',
    ':',
    ':::',
    '[]',
    `2a03:e40::${'0:'.repeat(40)}1`,
  ])('malformed %j → false', (address) => {
    expect(isAllowedSourceIp(address)).toBe(false);
  });

  it('non-strings are false, never a throw', () => {
    for (const value of [undefined, null, 185, {}, [], Symbol('x'), () => '185.6.76.1']) {
      expect(isAllowedSourceIp(value as unknown as string)).toBe(false);
    }
    expect(isAllowedSourceIp('185.6.76.1', null as unknown as string[])).toBe(false);
    expect(isAllowedSourceIp('185.6.76.1', ['nonsense', 42 as unknown as string, '185.6.76.0/22'])).toBe(true);
  });
});

describe('custom range lists', () => {
  it('sourceRangesFromJson turns the published form into a range list', () => {
    const ranges = sourceRangesFromJson({ ipv4: ['10.0.0.0/8', ' 192.0.2.7 '], ipv6: ['2001:db8::/48'] });
    expect(ranges).toEqual(['10.0.0.0/8', '192.0.2.7', '2001:db8::/48']);
    expect(isAllowedSourceIp('10.255.0.1', ranges)).toBe(true);
    expect(isAllowedSourceIp('192.0.2.7', ranges)).toBe(true);
    expect(isAllowedSourceIp('192.0.2.8', ranges)).toBe(false);
    expect(isAllowedSourceIp('2001:db8:0:ffff::1', ranges)).toBe(true);
    expect(isAllowedSourceIp('2001:db8:1::1', ranges)).toBe(false);
    expect(isAllowedSourceIp('185.6.76.1', ranges)).toBe(false);
    expect(sourceRangesFromJson({ ipv4: ['1.2.3.4/32'] })).toEqual(['1.2.3.4/32']);
  });

  it('sourceRangesFromJson refuses malformed input loudly', () => {
    // Another shape would otherwise give an empty list that silently refuses every delivery.
    expect(() => sourceRangesFromJson({} as never)).toThrow(TypeError);
    expect(() => sourceRangesFromJson({ IPv4: ['185.6.76.0/22'] } as never)).toThrow(/at least one/);
    expect(() => sourceRangesFromJson({ ipv4: ['10.0.0.0/33'] })).toThrow(TypeError);
    expect(() => sourceRangesFromJson({ ipv4: ['2001:db8::/32'] })).toThrow(/other family/);
    expect(() => sourceRangesFromJson({ ipv6: ['10.0.0.0/8'] })).toThrow(/other family/);
    expect(() => sourceRangesFromJson({ ipv6: ['2001:db8::/129'] })).toThrow(TypeError);
    expect(() => sourceRangesFromJson({ ipv4: '10.0.0.0/8' as unknown as string[] })).toThrow(TypeError);
    expect(() => sourceRangesFromJson(null as unknown as { ipv4: string[] })).toThrow(TypeError);
  });

  it('host bits in a range are masked; /0 matches its whole family', () => {
    expect(isAllowedSourceIp('185.6.76.1', ['185.6.77.9/22'])).toBe(true);
    expect(isAllowedSourceIp('255.255.255.255', ['0.0.0.0/0'])).toBe(true);
    expect(isAllowedSourceIp('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(isAllowedSourceIp('2001:db8::1', ['::/0'])).toBe(true);
  });

  it('IPv4-mapped ranges match IPv4 addresses, and IPv6 ranges containing a mapped address match it', () => {
    expect(isAllowedSourceIp('10.1.2.3', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(isAllowedSourceIp('11.1.2.3', ['::ffff:10.0.0.0/104'])).toBe(false);
    expect(isAllowedSourceIp('::ffff:10.1.2.3', ['::/0'])).toBe(true);
    expect(isAllowedSourceIp('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isAllowedSourceIp('127.0.0.1', ['::1/128'])).toBe(false);
    expect(isAllowedSourceIp('::1', ['::1/128'])).toBe(true);
  });

  it('a list is compiled once per array: a new array takes effect', () => {
    const first = ['192.0.2.0/24'];
    expect(isAllowedSourceIp('192.0.2.1', first)).toBe(true);
    const second = ['198.51.100.0/24'];
    expect(isAllowedSourceIp('192.0.2.1', second)).toBe(false);
    expect(isAllowedSourceIp('198.51.100.1', second)).toBe(true);
    expect(isAllowedSourceIp('192.0.2.1', first)).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Property test against a straightforward BigInt reference
// ---------------------------------------------------------------------------

interface Range {
  v6: boolean;
  network: bigint;
  prefix: number;
}

function referenceV4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function referenceV6(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(`0x${group}`), 0n);
}

function parseRange(cidr: string): Range {
  const [address, prefix] = cidr.split('/');
  const v6 = address!.includes(':');
  return { v6, network: v6 ? referenceV6(address!) : referenceV4(address!), prefix: Number(prefix) };
}

const ranges = WEBHOOK_SOURCE_RANGES.map(parseRange);
const MAPPED = 0xffffn << 32n;

/** The reference: membership by plain arithmetic on the number. */
function referenceAllowed(value: bigint, v6: boolean): boolean {
  const inRange = (candidate: bigint, bits: number, r: Range) =>
    (candidate >> BigInt(bits - r.prefix)) === (r.network >> BigInt(bits - r.prefix));
  if (!v6) return ranges.some((r) => !r.v6 && inRange(value, 32, r));
  if (value >> 32n === 0xffffn) return ranges.some((r) => (r.v6 ? inRange(value, 128, r) : inRange(value & 0xffffffffn, 32, r)));
  return ranges.some((r) => r.v6 && inRange(value, 128, r));
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}

function formatV6(value: bigint, style: number): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  if (style === 0) return groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
  if (style === 1) return groups.map((g) => g.toString(16).toUpperCase()).join(':');
  // Compress the longest run of zero groups.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLength < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

const nearEdge = (bits: number) =>
  fc
    .tuple(fc.constantFrom(...ranges.filter((r) => r.v6 === (bits === 128))), fc.boolean(), fc.integer({ min: -3, max: 3 }))
    .map(([r, last, delta]) => {
      const size = 1n << BigInt(bits - r.prefix);
      const edge = last ? r.network + size - 1n : r.network;
      const max = (1n << BigInt(bits)) - 1n;
      const value = edge + BigInt(delta);
      return value < 0n ? 0n : value > max ? max : value;
    });

describe('isAllowedSourceIp agrees with a BigInt reference near range edges', () => {
  it('IPv4', () => {
    fc.assert(
      fc.property(nearEdge(32), (value) => {
        expect(isAllowedSourceIp(formatV4(value))).toBe(referenceAllowed(value, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('IPv6 in several text forms', () => {
    fc.assert(
      fc.property(nearEdge(128), fc.integer({ min: 0, max: 2 }), (value, style) => {
        expect(isAllowedSourceIp(formatV6(value, style))).toBe(referenceAllowed(value, true));
      }),
      { numRuns: 2000 },
    );
  });

  it('IPv4-mapped IPv6, dotted and hex', () => {
    fc.assert(
      fc.property(nearEdge(32), fc.boolean(), (value, dotted) => {
        const mapped = MAPPED | value;
        const text = dotted ? `::ffff:${formatV4(value)}` : formatV6(mapped, 2);
        expect(isAllowedSourceIp(text)).toBe(referenceAllowed(mapped, true));
      }),
      { numRuns: 2000 },
    );
  });

  it('random addresses anywhere', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), (v6, v4) => {
        expect(isAllowedSourceIp(formatV6(v6, 2))).toBe(referenceAllowed(v6, true));
        expect(isAllowedSourceIp(formatV4(v4))).toBe(referenceAllowed(v4, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('arbitrary strings are a boolean, never a throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-fA-F:.%[\]]{0,48}$/)), (text) => {
        expect(typeof isAllowedSourceIp(text)).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('the reference itself reads the ranges as documented', () => {
    expect(referenceAllowed(referenceV4('185.6.79.255'), false)).toBe(true);
    expect(referenceAllowed(referenceV6('2a03:e40::'), true)).toBe(true);
    expect(referenceAllowed(referenceV6('2a03:e41::'), true)).toBe(false);
  });
});
