/**
 * Building blocks for tolerant answer schemas (zod/mini keeps the bundles small).
 *
 * Answers: every field but the identifiers the SDK needs may be absent or null,
 * unknown fields pass through (`looseObject`), unknown enum values pass through
 * (`openEnum`). Only a broken shape is an error.
 */
import * as z from 'zod/mini';
import type { ValidationIssue } from '../core/errors.js';

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

/** zod issues in the SDK's own, dependency-free shape. */
export function toIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}
