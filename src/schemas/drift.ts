/**
 * Answers as the service sends them: the one place that decides whether an answer (or a
 * webhook body) can be used, and which of its members drifted from their documented type.
 *
 * A conforming answer costs one in-place check (see in-place-check.ts) and is returned as
 * JSON.parse made it. Only a doubtful one goes to zod, whose issues are sorted: an issue is
 * fatal when its path runs only through required members of the schema (the root key, an
 * order's `code`, a resource's own `id`), and drift otherwise. Which members are required is
 * read from the schema's own definition, so every answer schema follows the rule without a
 * list per endpoint.
 */
import type * as z from 'zod/mini';
import type { ApiName } from '../core/api-name.js';
import { valueAt } from './common.js';
import { type Definition, defOf } from './definition.js';
import { compileCheck } from './in-place-check.js';

/** What `hooks.onDrift` (or a webhook parser's `onDrift`) receives. It carries no value from the answer. */
export interface DriftReport {
  /** The API that answered, or `'webhook'` for a webhook delivery. */
  api: ApiName | 'webhook';
  /** The request's method (`POST` for a webhook delivery). */
  method: string;
  /** The request's URL with secrets redacted; empty for a webhook delivery. */
  url: string;
  /** The schema path of the member, array positions collapsed: `$.order.line_items[].quantity`. */
  path: string;
  /** The documented type, e.g. `array` or `string | number`. */
  expected: string;
  /** The type received (`string`, `number`, `boolean`, `object`, `array`, `null`, `undefined`), never the value. */
  received: string;
}

/** One drifted member of one answer. */
export interface Drift {
  path: string;
  expected: string;
  received: string;
  /** Where in this answer (indices kept), for error messages. */
  at: PropertyKey[];
}

/** An answer that is not as documented: fatal issues (the SDK cannot use it) and drift. */
export interface Deviation {
  fatal: { path: PropertyKey[]; message: string }[];
  drift: Drift[];
}


/** Per schema: its in-place check, or false when it has none. */
const inPlaceChecks = new WeakMap<object, ((value: unknown) => boolean) | false>();

/** True when `value` conforms to `schema` exactly: the fast path, no copy, no allocation. */
export function conforms(schema: z.ZodMiniType, value: unknown): boolean {
  let check = inPlaceChecks.get(schema);
  if (check === undefined) {
    check = compileCheck(schema) ?? false;
    inPlaceChecks.set(schema, check);
  }
  return check !== false && check(value);
}

/**
 * How `value` departs from `schema`, or undefined when it conforms. Called after
 * `conforms` said no (or for schemas without an in-place check). `prefix` is where
 * `value` sits in the whole answer (paths are reported from the answer's root).
 */
export function inspect(schema: z.ZodMiniType, value: unknown, prefix: readonly string[] = []): Deviation | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const fatal: Deviation['fatal'] = [];
  const drift = new Map<string, Drift>();
  for (const issue of result.error.issues) {
    const place = walk(schema, issue.path, prefix);
    const received = kindOf(valueAt(value, issue.path));
    const at = [...prefix, ...issue.path];
    if (place.required) {
      const missing = at.length === 0 ? 'the answer is empty' : `${String(at.at(-1))} is missing`;
      const message = received === 'undefined' ? missing : `expected ${place.expected}, received ${received}`;
      fatal.push({ path: at, message });
    } else if (!drift.has(place.path)) {
      drift.set(place.path, { path: place.path, expected: place.expected, received, at });
    }
  }
  return { fatal, drift: [...drift.values()] };
}

interface Place {
  /** Every member on the way is required: the SDK cannot do without it. */
  required: boolean;
  /** The schema path, positions collapsed. */
  path: string;
  expected: string;
}

function walk(root: z.ZodMiniType, path: readonly PropertyKey[], prefix: readonly string[]): Place {
  let node: z.ZodMiniType | undefined = unwrap(root);
  let required = true;
  let shown = `$${prefix.map((key) => `.${key}`).join('')}`;
  for (const segment of path) {
    const def: Definition | undefined = node && defOf(node);
    let child: z.ZodMiniType | undefined;
    if (def?.type === 'object' && typeof segment === 'string' && def.shape && Object.hasOwn(def.shape, segment)) {
      child = def.shape[segment];
      shown += `.${segment}`;
    } else if (def?.type === 'array') {
      child = def.element;
      shown += '[]';
    } else if (def?.type === 'record') {
      child = def.valueType;
      shown += '.*';
      required = false;
    } else {
      // Inside a union, or a member the schema does not name: nothing the SDK relies on.
      shown += typeof segment === 'number' ? '[]' : `.${String(segment)}`;
      required = false;
      node = undefined;
      continue;
    }
    if (child === undefined) {
      node = undefined;
      required = false;
      continue;
    }
    const type = defOf(child).type;
    if (type === 'optional' || type === 'nullable') required = false;
    node = unwrap(child);
  }
  return { required, path: shown, expected: node ? typeName(node) : 'unknown' };
}

/** The schema under `optional` / `nullable` wrappers. */
function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  let node = schema;
  for (let def = defOf(node); def.type === 'optional' || def.type === 'nullable'; def = defOf(node)) node = def.innerType!;
  return node;
}

function typeName(schema: z.ZodMiniType): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'record':
      return 'object';
    case 'literal':
      return (def.values ?? []).map((value) => JSON.stringify(value)).join(' | ');
    case 'union':
      return [...new Set((def.options ?? []).map((option) => typeName(unwrap(option))))].join(' | ');
    case 'int':
      return 'number';
    default:
      return def.type;
  }
}

/** A JSON value's kind: the only thing a drift report says about the value. */
export function kindOf(value: unknown): string {
  // JSON.parse turns a number too large for a double into Infinity: "received number" would puzzle.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to represent (it overflowed to Infinity)';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** A drift finding as the `ValidationIssue` of an error (strict mode). */
export function driftIssue(drift: Drift): { path: PropertyKey[]; message: string } {
  return { path: drift.at, message: `expected ${drift.expected}, received ${drift.received}` };
}

/**
 * Calls `report` for each drift whose path (within `scope`: the API, as two APIs' answers can
 * share a path) `seen` does not hold yet, and remembers it.
 */
export function reportOnce<D extends { path: string }>(drifts: readonly D[], seen: Set<string>, report: (drift: D) => void, scope = ''): void {
  for (const drift of drifts) {
    const key = `${scope} ${drift.path}`;
    if (seen.has(key)) continue;
    // Schema paths are finite (unknown members are not drift), so this stays small.
    seen.add(key);
    report(drift);
  }
}
