/**
 * Property-based tests (fast-check, bounded runs, fixed seeds so a failure repeats):
 * - the webhook parser on structurally mutated full payloads: only WebhookParseError, no
 *   prototype pollution, no forged prototypes anywhere in what it returns;
 * - the Link header and the query encoder round-trip (pure internals, imported directly);
 * - isAllowedSourceIp on random range lists and mutated addresses, against a plain reference
 *   (test/webhooks/ip.test.ts already covers the documented ranges' edges; not repeated here).
 */
import fc from 'fast-check';
import { WebhookParseError } from 'emporio';
import { isAllowedSourceIp, safeParseWebhook } from 'emporio/webhooks';
import { describe, expect, it } from 'vitest';
import { fullNewOrderEvent, fullOrder } from '../../bench/full-order.js';
import { parseLinkHeader } from '../../src/core/link.js';
import { encodeQuery, type QueryParams } from '../../src/core/query.js';
import { isAllowedReference } from './ip-reference.js';

const SEED = 20260330;

// ---- webhook parser --------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const orderUpdated = (): Json => ({
  event_type: 'order_updated',
  event_time: '2026-03-30T12:00:00+03:00',
  order: { ...fullOrder(), state: 'accepted' } as Json,
  changes: {
    state: { old: 'open', new: 'accepted' },
    pickup_window: { old: null, new: { from: '2026-03-30T15:00:00+03:00', to: '2026-03-30T18:00:00+03:00' } },
    number_of_parcels: { old: null, new: 2 },
    pickup_address: { old: null, new: 'Σταδίου 10' },
    courier_tracking_codes: { old: [], new: ['TRK1', 'TRK2'] },
  },
});
const seeds: Json[] = [fullNewOrderEvent() as Json, orderUpdated()];

/** Every path to a value inside `value`. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(value.flatMap((item, i) => pathsOf(item, [...prefix, i])));
  if (value && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

/** A copy of `root` with the value at `path` replaced (or removed, for `undefined`). */
function withValue(root: Json, path: (string | number)[], next: Json | undefined): Json | undefined {
  if (path.length === 0) return next;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = next;
  return copy;
}

const hostileKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf');
const oddValues: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(null, '', 0, -1, 1e308, true, [], {}, 'accepted', '2026-02-30T25:61:00+03:00', { polluted: 'yes' }),
);

/** Text with a hostile key injected into the JSON object that opens at `at` (JSON.parse keeps `__proto__` as an own key). */
function injectKey(text: string, at: number, key: string): string {
  const opens = [...text.matchAll(/\{/g)].map((m) => m.index as number);
  const open = opens[at % opens.length] as number;
  const empty = text[open + 1] === '}';
  return `${text.slice(0, open + 1)}${JSON.stringify(key)}:{"polluted":"yes","code":"forged","isAdmin":true}${empty ? '' : ','}${text.slice(open + 1)}`;
}

const mutatedBody = fc
  .tuple(fc.constantFrom(...seeds), fc.nat(), oddValues, fc.nat(), hostileKeys, fc.integer({ min: 0, max: 4 }))
  .map(([seed, pick, value, at, key, kind]) => {
    const paths = pathsOf(seed);
    const path = paths[pick % paths.length] as (string | number)[];
    switch (kind) {
      case 0:
        return JSON.stringify(withValue(seed, path, value) ?? null);
      case 1:
        return JSON.stringify(withValue(seed, path, undefined) ?? null);
      case 2:
        return injectKey(JSON.stringify(seed), at, key);
      case 3: {
        // Two mutations at once: a wrong type somewhere, a hostile key elsewhere.
        return injectKey(JSON.stringify(withValue(seed, path, value) ?? {}), at, key);
      }
      default: {
        const text = JSON.stringify(seed);
        return text.slice(0, at % text.length) + text.slice((at % text.length) + (pick % 7));
      }
    }
  });

/** Every object reachable from `value` has a plain prototype (no forged inherited members). */
function expectPlainPrototypes(value: unknown): void {
  expect(forgedPrototypes(value)).toEqual([]);
}

/** The prototypes found that are not plain ones (one expect per event, not per object: drifted events now pass, many of them). */
function forgedPrototypes(value: unknown, seen = new Set<unknown>(), found: unknown[] = []): unknown[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return found;
  seen.add(value);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) found.push(prototype);
  for (const key of Object.keys(value)) forgedPrototypes((value as Record<string, unknown>)[key], seen, found);
  return found;
}

function expectNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'code']) {
    expect(probe[key]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty(key);
    expect(Array.prototype).not.toHaveProperty(key);
  }
  expect(typeof probe.toString).toBe('function');
}

describe('parseWebhook on mutated full payloads', () => {
  it('the seeds themselves parse', () => {
    for (const seed of seeds) expect(safeParseWebhook(JSON.stringify(seed)).success).toBe(true);
  });

  it('never throws anything but WebhookParseError, pollutes nothing and returns plain data (text, bytes, object)', () => {
    const encoder = new TextEncoder();
    let parsed = 0;
    let refused = 0;
    fc.assert(
      fc.property(mutatedBody, (text) => {
        let object: unknown;
        try {
          object = JSON.parse(text);
        } catch {
          object = undefined;
        }
        const inputs: unknown[] = [text, encoder.encode(text)];
        if (object !== undefined && object !== null) inputs.push(object);
        for (const input of inputs) {
          const result = safeParseWebhook(input as string);
          if (result.success) {
            parsed++;
            expectPlainPrototypes(result.event);
            expect((result.event as unknown as Record<string, unknown>).polluted).toBeUndefined();
          } else {
            refused++;
            expect(result.error).toBeInstanceOf(WebhookParseError);
          }
          expectNoPollution();
        }
      }),
      { numRuns: 2_000, seed: SEED },
    );
    // The generator must exercise both outcomes, or it proves little.
    expect(parsed).toBeGreaterThan(800);
    expect(refused).toBeGreaterThan(300);
  });
});

// ---- Link header -----------------------------------------------------------------------

const relName = fc.stringMatching(/^[a-z][a-z0-9.-]{0,11}$/);
const linkTarget = fc.webUrl({ withQueryParameters: true, withFragments: false }).filter((url) => !/[<>]/.test(url));
/** A parameter value that may hold commas, semicolons and equals signs inside its quotes. */
const quotedValue = fc.string({ unit: fc.constantFrom('a', ' ', ',', ';', '=', '1', '; rel=prev', ', <http://evil.test/>; rel=next'), maxLength: 6 });

describe('Link header round trip', () => {
  it('every rel formatted into a header is parsed back to its URL', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ rel: relName, url: linkTarget, title: fc.option(quotedValue), quoted: fc.boolean(), titleFirst: fc.boolean() }), {
          selector: (link) => link.rel,
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom(', ', ',', ' ,  '),
        (links, separator) => {
          const header = links
            .map(({ rel, url, title, quoted, titleFirst }) => {
              const relParam = quoted ? `rel="${rel}"` : `rel=${rel}`;
              if (title === null) return `<${url}>; ${relParam}`;
              return titleFirst ? `<${url}>; title="${title}"; ${relParam}` : `<${url}>; ${relParam}; title="${title}"`;
            })
            .join(separator);
          const parsed = parseLinkHeader(header);
          expect(Object.fromEntries(parsed)).toEqual(Object.fromEntries(links.map((l) => [l.rel, l.url])));
        },
      ),
      { numRuns: 1_000, seed: SEED },
    );
  });

  // Found by the property above with the title placed before rel: parameters must be split
  // outside quotes, or a quoted title holding '; rel=x' wins over the real rel.
  it('a quoted parameter before rel holding "; rel=..." does not hide the real rel', () => {
    expect(Object.fromEntries(parseLinkHeader('<https://api.test/x?page=2>; title="a; rel=last"; rel="next"'))).toEqual({
      next: 'https://api.test/x?page=2',
    });
  });

  it('a rel list ("next last") names the same target for each rel', () => {
    fc.assert(
      fc.property(fc.uniqueArray(relName, { minLength: 1, maxLength: 4 }), linkTarget, (rels, url) => {
        const parsed = parseLinkHeader(`<${url}>; rel="${rels.join(' ')}"`);
        for (const rel of rels) expect(parsed.get(rel)).toBe(url);
        expect(parsed.size).toBe(rels.length);
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it('arbitrary header text never throws and yields only string targets', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', ';', ',', '"', '=', ' ', 'r', 'e', 'l', 'n', 'x'), maxLength: 200 }), (header) => {
        for (const [rel, url] of parseLinkHeader(header)) {
          expect(typeof rel).toBe('string');
          expect(typeof url).toBe('string');
        }
      }),
      { numRuns: 1_000, seed: SEED },
    );
  });
});

// ---- query encoder ---------------------------------------------------------------------

const COMMA_LISTS = ['embed', 'embed_ids', 'include', 'include_meta'] as const;
const text = fc.string({ unit: 'binary', maxLength: 16 }).filter((s) => s.isWellFormed());
const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
const plainKey = fc.stringMatching(/^[a-z][a-z_]{0,11}$/).filter((k) => !(COMMA_LISTS as readonly string[]).includes(k) && k !== 'fields' && k !== 'fields_except');
/** Names inside a comma list: no commas, not empty. */
const listItem = fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).filter((s) => s.isWellFormed() && !s.includes(','));

const queryParams = fc.record(
  {
    plain: fc.dictionary(plainKey, fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.constantFrom(null, undefined)), { maxKeys: 5 }),
    lists: fc.dictionary(fc.constantFrom(...COMMA_LISTS), fc.oneof(listItem, fc.array(listItem, { minLength: 1, maxLength: 4 }))),
    fields: fc.option(fc.dictionary(fc.stringMatching(/^[a-z_]{1,10}$/), fc.array(listItem, { minLength: 1, maxLength: 4 }), { minKeys: 1, maxKeys: 3 })),
    fields_except: fc.option(fc.dictionary(fc.stringMatching(/^[a-z_]{1,10}$/), fc.array(listItem, { minLength: 1, maxLength: 4 }), { minKeys: 1, maxKeys: 3 })),
  },
  { requiredKeys: ['plain', 'lists'] },
);

describe('query encoder round trip: encodeQuery → URLSearchParams → the same values', () => {
  it('scalars, repeated arrays, comma lists and fields[...] come back intact', () => {
    fc.assert(
      fc.property(queryParams, ({ plain, lists, fields, fields_except }) => {
        const params: Record<string, unknown> = { ...plain, ...lists };
        if (fields) params.fields = fields;
        if (fields_except) params.fields_except = fields_except;
        const encoded = encodeQuery(params as QueryParams);
        expect(encoded === '' || encoded.startsWith('?')).toBe(true);
        const back = new URLSearchParams(encoded.slice(1));
        const expectedKeys = new Set<string>();

        for (const [key, value] of Object.entries(plain)) {
          if (value === null || value === undefined) {
            expect(back.has(key)).toBe(false);
          } else if (Array.isArray(value)) {
            expect(back.getAll(`${key}[]`)).toEqual(value.map(String));
            if (value.length) expectedKeys.add(`${key}[]`);
          } else {
            expect(back.getAll(key)).toEqual([String(value)]);
            expectedKeys.add(key);
          }
        }
        for (const [key, value] of Object.entries(lists)) {
          expect(back.get(key)?.split(',')).toEqual(Array.isArray(value) ? value : [value]);
          expectedKeys.add(key);
        }
        for (const [name, shape] of [['fields', fields], ['fields_except', fields_except]] as const) {
          for (const [resource, names] of Object.entries(shape ?? {})) {
            expect(back.get(`${name}[${resource}]`)?.split(',')).toEqual(names);
            expectedKeys.add(`${name}[${resource}]`);
          }
        }
        // Nothing else was added.
        expect(new Set(back.keys())).toEqual(expectedKeys);
      }),
      { numRuns: 1_000, seed: SEED },
    );
  });
});

// ---- source addresses on random range lists --------------------------------------------

const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
function v6Text(n: bigint, style: number): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  if (style === 0) return groups.join(':');
  if (style === 1) return groups.map((g) => g.padStart(4, '0').toUpperCase()).join(':');
  // Compress the longest run of zero groups, as RFC 5952 does.
  let best = [-1, 0];
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > (best[1] as number)) best = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const [start, length] = best as [number, number];
  if (length < 2) return groups.join(':');
  return `${groups.slice(0, start).join(':')}::${groups.slice(start + length).join(':')}`;
}

const cidr = fc.oneof(
  fc.tuple(fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), fc.integer({ min: 0, max: 32 })).map(([n, p]) => ({ v6: false, n, p })),
  fc.tuple(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), fc.integer({ min: 0, max: 128 })).map(([n, p]) => ({ v6: true, n, p })),
);

/** A random range list, and an address at, just inside or just outside one of its edges. */
const rangesAndAddress = fc
  .tuple(fc.array(cidr, { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.boolean())
  .map(([list, pick, high, offset, style, decorate]) => {
    const range = list[pick % list.length] as { v6: boolean; n: bigint; p: number };
    const bits = range.v6 ? 128n : 32n;
    const size = 1n << (bits - BigInt(range.p));
    const network = (range.n / size) * size;
    const max = (1n << bits) - 1n;
    let address = (high ? network + size - 1n : network) + BigInt(offset);
    address = address < 0n ? 0n : address > max ? max : address;
    let ip = range.v6 ? v6Text(address, style) : v4Text(address);
    if (range.v6 && decorate) ip = style === 2 ? `${ip}%eth0` : `[${ip}]`;
    const ranges = list.map((r) => `${r.v6 ? v6Text(r.n, 2) : v4Text(r.n)}/${r.p}`);
    return { ranges, ip };
  });

describe('isAllowedSourceIp on random range lists (against the plain reference)', () => {
  it('agrees at and around every edge, in several text forms', () => {
    fc.assert(
      fc.property(rangesAndAddress, ({ ranges, ip }) => {
        expect(isAllowedSourceIp(ip, ranges)).toBe(isAllowedReference(ip, ranges));
      }),
      { numRuns: 2_000, seed: SEED },
    );
  });

  it('mutated addresses: never a throw, and the same answer as the reference', () => {
    fc.assert(
      fc.property(
        rangesAndAddress,
        fc.nat(),
        fc.constantFrom('', ':', '::', '.', '0', 'f', 'g', '%', '[', ']', ' ', '/24', '00', '\u0000', '１'),
        fc.integer({ min: 0, max: 3 }),
        ({ ranges, ip }, at, insert, cut) => {
          const i = at % (ip.length + 1);
          const mutated = ip.slice(0, i) + insert + ip.slice(i + cut);
          const result = isAllowedSourceIp(mutated, ranges);
          expect(typeof result).toBe('boolean');
          expect(result).toBe(isAllowedReference(mutated, ranges));
        },
      ),
      { numRuns: 2_000, seed: SEED },
    );
  });
});
