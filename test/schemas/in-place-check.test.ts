/// <reference types="vite/client" />
/**
 * The in-place check's promise: when it says yes, zod accepts the value and returns it unchanged
 * (so the value is returned as parsed); when it cannot promise that, it compiles to nothing and
 * zod decides. And every answer schema the SDK has compiles, so no answer falls off the fast path.
 */
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { compileCheck } from '../../src/schemas/in-place-check.js';
import { OrderEnvelope } from '../../src/schemas/order.js';

const modules = import.meta.glob<Record<string, unknown>>('../../src/schemas/**/*.ts', { eager: true });

const isSchema = (value: unknown): value is z.ZodMiniType => typeof value === 'object' && value !== null && '_zod' in value;
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: { type: string; catchall?: z.ZodMiniType } } })._zod.def;
/** An object that keeps unknown keys: what every answer schema is (requests are strict). */
const isLoose = (schema: z.ZodMiniType) => {
  const { type, catchall } = defOf(schema);
  return type === 'object' && catchall !== undefined && defOf(catchall).type === 'unknown';
};

/** Agrees with zod on `value`: a yes only where zod accepts it unchanged. */
function agrees(schema: z.ZodMiniType, value: unknown): void {
  const check = compileCheck(schema);
  if (check === undefined) return;
  const parsed = schema.safeParse(value);
  if (check(value)) {
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(value);
  } else {
    expect(parsed.success && JSON.stringify(parsed.data) === JSON.stringify(value) && parsed.data !== undefined).toBe(false);
  }
}

describe('the in-place check', () => {
  it('compiles for every answer schema (a loose object) the SDK has', () => {
    expect(compileCheck(OrderEnvelope)).toBeTypeOf('function');
    const answers = Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => isSchema(value) && isLoose(value))
        .map(([name, value]) => [`${file.replace(/^.*src\//, '')} ${name}`, value as z.ZodMiniType] as const),
    );
    expect(answers.length).toBeGreaterThan(50);
    const uncompiled = answers.filter(([, schema]) => compileCheck(schema) === undefined).map(([name]) => name);
    expect(uncompiled).toEqual([]);
  });

  it.each([
    ['a required unknown', z.looseObject({ a: z.unknown() }), [{}, { a: undefined }, { a: 1 }]],
    ['a required nullable unknown', z.looseObject({ a: z.nullable(z.unknown()) }), [{}, { a: null }, { a: 1 }]],
    ['a required union with unknown', z.looseObject({ a: z.union([z.string(), z.unknown()]) }), [{}, { a: 2 }]],
    ['an optional string', z.looseObject({ a: z.optional(z.string()) }), [{}, { a: 'x' }, { a: 1 }]],
    ['a literal', z.looseObject({ a: z.literal(['x', 2, null]) }), [{ a: 'x' }, { a: 2 }, { a: null }, { a: 'y' }, {}]],
    ['a finite number', z.looseObject({ a: z.number() }), [{ a: 1 }, { a: Number.NaN }, { a: Number.POSITIVE_INFINITY }, { a: '1' }]],
    ['an own __proto__', z.looseObject({ a: z.optional(z.string()) }), [JSON.parse('{"__proto__":{"a":1}}')]],
    ['a record', z.record(z.string(), z.number()), [{ a: 1 }, { a: 'x' }, []]],
  ] as const)('agrees with zod on %s', (_, schema, values) => {
    expect(compileCheck(schema)).toBeTypeOf('function');
    for (const value of values) agrees(schema, value);
  });

  it.each([
    ['a member with a check', z.looseObject({ a: z.string().check(z.minLength(2)) })],
    ['an unknown with a check', z.looseObject({ a: z.unknown().check(z.refine(() => false)) })],
    ['a catchall with a check', z.catchall(z.object({}), z.unknown().check(z.refine(() => false)))],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['a member named like Object.prototype’s', z.looseObject({ toString: z.optional(z.string()) })],
    ['an exclusive union', z.xor([z.string(), z.number()])],
  ])('leaves %s to zod', (_, schema) => {
    expect(compileCheck(schema)).toBeUndefined();
  });
});
