/**
 * A fast yes/no check derived from a zod/mini schema's definition, for the webhook hot
 * path: zod builds a new object for every object it parses, which costs more than
 * JSON.parse itself on an order payload. The answer schemas are loose objects of plain
 * types, so for them "valid" means "the output equals the input": the check reads the
 * value in place and, when it says yes, the value is the parse result as it stands.
 *
 * Only definitions whose output always equals their input are compiled (loose objects,
 * optional, nullable, arrays, strings, finite numbers, booleans, literals, unknown);
 * anything else (checks, strip or strict objects, transforms) compiles to `undefined`,
 * and the caller uses zod. A `no` is re-checked by zod, which also names the bad field.
 */
import type * as z from 'zod/mini';

type Check = (value: unknown) => boolean;

interface Definition {
  type: string;
  checks?: unknown[];
  /** Set on schemas that are checks themselves (`z.int()`, `z.email()`). */
  format?: string;
  /** False on `z.xor`, which wants exactly one option to match. */
  inclusive?: boolean;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  values?: unknown[];
  keyType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  options?: z.ZodMiniType[];
}

const hasOwn = Object.prototype.hasOwnProperty;
const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && value - value === 0; // finite, as zod requires
const isBoolean: Check = (value) => typeof value === 'boolean';
const isAnything: Check = () => true;

/**
 * An object as JSON.parse makes them. Anything else (a Map, a class instance, a null-prototype
 * object from a body parser) and an own `__proto__` key, which zod drops, go to zod, so the
 * result is always zod's.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !hasOwn.call(value, '__proto__')
  );
}

/** The check for `schema`, or undefined when its output could differ from its input. */
export function compileCheck(schema: z.ZodMiniType): Check | undefined {
  const def = (schema as unknown as { _zod: { def: Definition } })._zod.def;
  if ((def.checks !== undefined && def.checks.length > 0) || def.format !== undefined) return undefined;
  switch (def.type) {
    case 'string':
      return isString;
    case 'number':
      return isNumber;
    case 'boolean':
      return isBoolean;
    case 'unknown':
      return isAnything;
    case 'literal': {
      const values = def.values ?? [];
      return (value) => values.includes(value);
    }
    case 'optional':
    case 'nullable': {
      const innerDef = (def.innerType as unknown as { _zod: { def: Definition } })._zod.def;
      if (def.type === 'optional' && innerDef.type === 'nullable' && !innerDef.checks?.length) {
        const inner = compileCheck(innerDef.innerType!);
        return inner && ((value) => value == null || inner(value));
      }
      const inner = compileCheck(def.innerType!);
      if (inner === undefined) return undefined;
      return def.type === 'optional' ? (value) => value === undefined || inner(value) : (value) => value === null || inner(value);
    }
    case 'array': {
      const element = compileCheck(def.element!);
      if (element === undefined) return undefined;
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
        return true;
      };
    }
    case 'object': {
      // Only loose objects keep unknown keys as they are.
      if (def.catchall === undefined || compileCheck(def.catchall) !== isAnything) return undefined;
      /** Per member: its check, and 1 when it must be there (its check refuses undefined, or it is a required z.unknown()). */
      // A dictionary without a prototype: a key walk reads it faster than a Map.
      const members: Record<string, [Check, number] | undefined> = Object.create(null);
      let required = 0;
      for (const [key, member] of Object.entries(def.shape!)) {
        const check = compileCheck(member);
        if (check === undefined) return undefined;
        const must = check === isAnything || !check(undefined) ? 1 : 0;
        members[key] = [check, must];
        required += must;
      }
      // The value's own keys are walked, not the schema's: an answer sends far fewer members
      // than its schema names, and for-in reads them fast. A required member not met is missing.
      return (value) => {
        if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
        let met = 0;
        for (const key in value) {
          const member = members[key];
          if (member === undefined) {
            // An own "__proto__" (JSON.parse makes one) is a plain object's only unsafe key.
            if (key === '__proto__') return false;
            continue;
          }
          if (!member[0]((value as Record<string, unknown>)[key])) return false;
          met += member[1];
        }
        return met === required;
      };
    }
    case 'record': {
      // String keys only (every JSON key is one); each own value checked.
      const keyDef = (def.keyType as unknown as { _zod: { def: Definition } })._zod.def;
      if (keyDef.type !== 'string' || keyDef.checks?.length) return undefined;
      const valueCheck = compileCheck(def.valueType!);
      if (valueCheck === undefined) return undefined;
      return (value) => {
        if (!isPlainObject(value)) return false;
        for (const key in value) if (hasOwn.call(value, key) && !valueCheck(value[key])) return false;
        return true;
      };
    }
    case 'union': {
      if (def.inclusive === false) return undefined;
      const options = (def.options ?? []).map(compileCheck);
      if (options.some((check) => check === undefined)) return undefined;
      return (value) => options.some((check) => check!(value));
    }
    default:
      return undefined;
  }
}
