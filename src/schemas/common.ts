/**
 * Building blocks for tolerant answer schemas (zod/mini keeps the bundles small).
 *
 * Answers: every field but the identifiers the SDK needs may be absent or null,
 * unknown fields pass through (`looseObject`), unknown enum values pass through
 * (`openEnum`). Only a broken shape is an error.
 */
import * as z from 'zod/mini';
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';

/** A field the service may omit or send as null. */
export const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/** A known set of string values that still accepts values added later: `'a' | 'b' | (string & {})`. */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/**
 * An answer object: unknown fields are kept at run time (`looseObject`), but the type lists
 * only the known ones, so a misspelt field is a compile error rather than an `unknown`.
 */
export function record<T extends z.core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, z.core.$strip> {
  return z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;
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

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
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
