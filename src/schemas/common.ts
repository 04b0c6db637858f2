/**
 * Building blocks for tolerant answer schemas (zod/mini keeps the bundles small).
 *
 * Answers: every field but the identifiers the SDK needs may be absent or null,
 * unknown fields pass through (`looseObject`), unknown enum values pass through
 * (`openEnum`). Only a broken shape is an error.
 *
 * How a schema is declared (follow it in new schema files):
 *
 *     const customerShape = () => ({ id: maybe(z.string()), ... });
 *     // doc comments go on the interface and on the shape's fields
 *     export interface Customer extends Infer<typeof customerShape> {}
 *     export const Customer: Schema<Customer> = answer(customerShape); // marked @__PURE__
 *
 * - Lazy: `answer` (and `lazy` for any other schema) builds the zod schema on first use,
 *   so importing the package builds none (start-up time). Mark each such call with a
 *   `@__PURE__` comment: esbuild does not carry no-side-effects marks across modules, and
 *   without it every entry keeps every schema.
 * - Named: users see `Customer`, not the expanded structure, and a schema that nests it
 *   (`customer: maybe(Customer)`) shows `Customer` too.
 * - Cheap: the build writes each inferred type out as a plain interface (scripts/plain-declarations.mjs),
 *   so the published declarations do not import zod and a consumer's compiler does little work.
 * - Types come from the shape only, never written twice. Schema constants stay internal:
 *   only the interfaces are exported by the package.
 */
import * as z from 'zod/mini';
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';

/** A schema as the types see it: a zod/mini schema whose output is `T` (an interface: one short name in the declarations). */
export interface Schema<T> extends z.ZodMiniType<T> {}

/**
 * A shape member the service may omit or send as null (`key?: T | null`). The brand is
 * a type only: it lets `Infer` read `T` without zod's generic types.
 */
export interface Maybe<T> extends z.ZodMiniType<T | null | undefined> {
  readonly '~maybe': T;
}

/** A field the service may omit or send as null. */
export const maybe = <T extends z.ZodMiniType>(schema: T): Maybe<z.output<T>> =>
  z.optional(z.nullable(schema)) as unknown as Maybe<z.output<T>>;

/**
 * A member the service documents as always sent, yet the SDK can do without: absent or of
 * another type, it is drift (reported, refused only when strict), never a refusal of the
 * whole answer. For answers whose refusal would mislead (a purchase order made, its code missing).
 */
export const expected = <T extends z.ZodMiniType>(schema: T): Maybe<z.output<T>> =>
  z.nullable(schema) as unknown as Maybe<z.output<T>>;

type OptionalKeys<S> = { [K in keyof S]: S[K] extends Maybe<unknown> | z.ZodMiniOptional ? K : never }[keyof S];
type Output<M> = M extends Maybe<infer T> ? T | null | undefined : z.output<M>;

/** The object type a shape describes: `Maybe` and optional members are optional keys. */
export type InferShape<S> = {
  -readonly [K in keyof S as K extends OptionalKeys<S> ? never : K]: Output<S[K]>;
} & {
  -readonly [K in keyof S as K extends OptionalKeys<S> ? K : never]?: Output<S[K]>;
};

/** The object type of a shape function (see the pattern at the top of this file). */
export type Infer<F extends () => object> = InferShape<ReturnType<F>>;

/**
 * A schema built on first use: a stand-in that builds it when first touched (parsed,
 * nested in another schema, compiled into an in-place check), so importing builds nothing.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazy<S extends object>(build: () => S): S {
  let built: S | undefined;
  const schema = () => (built ??= build());
  return new Proxy({} as S, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      if (descriptor) descriptor.configurable = true;
      return descriptor;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/** A lazily built answer object (see the pattern at the top of this file). */
/* @__NO_SIDE_EFFECTS__ */
export function answer<S extends z.core.$ZodLooseShape>(shape: () => S): Schema<InferShape<S>> {
  return lazy(() => record(shape()));
}

/** One `{ old, new }` member of a webhook's `changes`; either side may be absent or null. */
/* @__NO_SIDE_EFFECTS__ */
export function change<T extends z.ZodMiniType>(value: T) {
  return record({ old: maybe(value), new: maybe(value) });
}

/** A known set of string values that still accepts values added later: `'a' | 'b' | (string & {})`. */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/**
 * An answer object: unknown fields are kept at run time (`looseObject`), but the type lists
 * only the known ones, so a misspelt field is a compile error rather than an `unknown`.
 */
export function record<T extends z.core.$ZodLooseShape>(shape: T): Schema<InferShape<T>> {
  return z.looseObject(shape) as unknown as Schema<InferShape<T>>;
}

// Request fields of the merchant APIs, each with the message users see. A blank string (only
// spaces) is refused like an empty one: no id, name or code is ever blank.
/* @__NO_SIDE_EFFECTS__ */
export function nonEmptyString() {
  return z.string({ error: 'expected a non-empty string' }).check(z.refine((value) => value.trim().length > 0, 'expected a non-empty string'));
}
/* @__NO_SIDE_EFFECTS__ */
export function integer(min?: 0 | 1) {
  const schema = z.int({ error: 'expected an integer' });
  if (min === 0) return schema.check(z.nonnegative('expected a non-negative integer'));
  return min === 1 ? schema.check(z.positive('expected a positive integer')) : schema;
}
/* @__NO_SIDE_EFFECTS__ */
export function flag() {
  return z.boolean({ error: 'expected a boolean' });
}

/**
 * Checks request input against its strict schema before anything is sent: a bad one is a
 * `RequestValidationError` whose issues name each bad field (under `prefix`, when given).
 */
export function checkRequest<T>(schema: z.ZodMiniType<T, unknown>, value: unknown, what: string, prefix: readonly PropertyKey[] = []): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = toIssues(result.error, value).map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
  throw new RequestValidationError(`Invalid ${what}`, issues);
}

/**
 * zod issues in the SDK's own, dependency-free shape. zod/mini ships no message texts
 * (they would cost bundle bytes), so its generic "Invalid input" is phrased here from the
 * issue itself; `input`, when given, tells a missing field from a wrong one.
 */
export function toIssues(error: z.core.$ZodError, input?: unknown): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path, message: describe(issue, input) }));
}

function describe(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      if (input !== undefined && valueAt(input, issue.path) === undefined) return 'is required';
      return `expected ${issue.expected}`;
    }
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items' : ''}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return issue.message || 'invalid value';
  }
}

/** The value at `path` in `input`, or undefined when the way there is not an object. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The array schema, typed as readonly for callers (who may pass `as const` lists). Not
 * `z.readonly`, which would freeze every parsed array and add its schema type to the bundle.
 */
export function readonlyArray<T extends z.ZodMiniType>(schema: T): z.ZodMiniType<Readonly<z.output<T>>, Readonly<z.input<T>>> {
  return schema as unknown as z.ZodMiniType<Readonly<z.output<T>>, Readonly<z.input<T>>>;
}

const successAnswerShape = () => ({
  /** `true` on success. */
  success: maybe(z.boolean()),
});
/** The usual success answer `{ success: true }`, shared by the order, return, product and CPS actions. */
export interface SuccessAnswer extends Infer<typeof successAnswerShape> {}
export const SuccessAnswer: Schema<SuccessAnswer> = /* @__PURE__ */ answer(successAnswerShape);
