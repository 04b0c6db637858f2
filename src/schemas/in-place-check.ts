/**
 * A fast yes/no check derived from a zod/mini schema's definition, for the hot paths (every
 * answer, every webhook): zod builds a new object for every object it parses, which costs
 * more than JSON.parse itself on an order payload. The answer schemas are loose objects of
 * plain types, so for them "valid" means "the output equals the input": the check reads the
 * value in place and, when it says yes, the value is the parse result as it stands.
 *
 * The check is compiled to JavaScript source once per schema (as zod and ajv do): one
 * function per object or array, members read by name, so V8 sees plain property loads and
 * direct calls. That is five times faster than walking the definition with closures.
 * Only definitions whose output always equals their input are compiled (loose objects,
 * optional, nullable, arrays, strings, finite numbers, booleans, literals, unknown);
 * anything else (checks, strip or strict objects, transforms) compiles to `undefined`, and
 * the caller uses zod. So does every schema on a runtime that forbids code generation
 * (edge workers, `--disallow-code-generation-from-strings`): slower, the same results.
 * A `no` is re-checked by zod, which also names the bad field.
 */
import type * as z from 'zod/mini';
import { defOf } from './definition.js';

type Check = (value: unknown) => boolean;


/** Thrown while compiling a definition whose output could differ from its input. */
const NOT_IN_PLACE = new Error('not checkable in place');

/** False once code generation was refused: every later schema goes to zod without trying. */
let codeGeneration = true;

/** The check for `schema`, or undefined when its output could differ from its input (or nothing can be compiled here). */
export function compileCheck(schema: z.ZodMiniType): Check | undefined {
  if (!codeGeneration) return undefined;
  let source: string;
  try {
    source = checkSource(schema);
  } catch (error) {
    if (error === NOT_IN_PLACE) return undefined;
    throw error;
  }
  try {
    return new Function(source)() as Check;
  } catch (error) {
    // Forbidden here (an EvalError): no schema will compile. Anything else is this schema's alone.
    if (error instanceof EvalError) codeGeneration = false;
    return undefined;
  }
}

/**
 * An object as JSON.parse makes them. Anything else (a Map, a class instance, a null-prototype
 * object from a body parser) and an own `__proto__` key, which zod drops, go to zod, so the
 * result is always zod's.
 */
const PLAIN_OBJECT = 'if(typeof v!=="object"||v===null||getProto(v)!==OP||hasOwn.call(v,"__proto__"))return false;';

/** A literal the source may spell: JSON's primitives (finite numbers only) and undefined. */
function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
    return JSON.stringify(value);
  }
  throw NOT_IN_PLACE;
}

/** Definitions whose check refuses undefined at its top. */
const REFUSE_UNDEFINED = new Set(['string', 'number', 'boolean', 'array', 'object', 'record']);

/** True when zod wants the member's key present (it is not optional). */
const isRequired = (member: z.ZodMiniType): boolean => (member as unknown as { _zod: { optin?: string } })._zod.optin === undefined;

/** The source of one schema's check: an expression per definition, a function per object, array or record. */
function checkSource(schema: z.ZodMiniType): string {
  const functions: string[] = [];
  const names = new Map<z.ZodMiniType, string>();

  /** A call of the function checking `of` (one per schema, however often it appears), its body made once. */
  const call = (of: z.ZodMiniType, x: string, body: () => string): string => {
    let name = names.get(of);
    if (name === undefined) {
      name = `c${names.size}`;
      // Named before its body is made: a schema that contains itself calls itself.
      names.set(of, name);
      functions.push(`function ${name}(v){${body()}}`);
    }
    return `${name}(${x})`;
  };

  /** A boolean expression: `x` (a variable's name) conforms to `of`. */
  const test = (of: z.ZodMiniType, x: string): string => {
    const def = defOf(of);
    if ((def.checks !== undefined && def.checks.length > 0) || def.format !== undefined) throw NOT_IN_PLACE;
    switch (def.type) {
      case 'string':
      case 'boolean':
        return `typeof ${x}==="${def.type}"`;
      case 'number':
        // Finite, as zod requires.
        return `(typeof ${x}==="number"&&${x}-${x}===0)`;
      case 'unknown':
        return 'true';
      case 'literal':
        if (!def.values?.length) throw NOT_IN_PLACE;
        return `(${def.values.map((value) => `${x}===${literal(value)}`).join('||')})`;
      case 'optional':
      case 'nullable': {
        const inner = defOf(def.innerType!);
        if (def.type === 'optional' && inner.type === 'nullable' && !inner.checks?.length) return `(${x}==null||${test(inner.innerType!, x)})`;
        return `(${x}===${def.type === 'optional' ? 'undefined' : 'null'}||${test(def.innerType!, x)})`;
      }
      case 'union':
        if (def.inclusive === false || !def.options?.length) throw NOT_IN_PLACE;
        return `(${def.options.map((option) => test(option, x)).join('||')})`;
      case 'array':
        return call(of, x, () => `if(!isArray(v))return false;for(let i=0;i<v.length;i++){const x=v[i];if(!(${test(def.element!, 'x')}))return false}return true`);
      case 'object': {
        // Only loose objects keep unknown keys as they are.
        const catchall = def.catchall && defOf(def.catchall);
        if (catchall?.type !== 'unknown' || catchall.checks?.length || catchall.format !== undefined) throw NOT_IN_PLACE;
        return call(of, x, () => {
          let body = `${PLAIN_OBJECT}let x;`;
          for (const [key, member] of Object.entries(def.shape!)) {
            // zod reads such a member through the prototype (an inherited `toString` is "present").
            if (key in Object.prototype) throw NOT_IN_PLACE;
            const name = JSON.stringify(key);
            let check = test(member, 'x');
            // zod wants the key of a member that is not optional, even where its schema takes undefined
            // (z.unknown(), a nullable or a union of one, z.literal(undefined)); the other types refuse undefined anyway.
            if (isRequired(member) && !REFUSE_UNDEFINED.has(defOf(member).type)) check = `(x!==undefined||hasOwn.call(v,${name}))&&${check}`;
            body += `x=v[${name}];if(!(${check}))return false;`;
          }
          return `${body}return true`;
        });
      }
      case 'record':
        // String keys only (every JSON key is one); each own value checked.
        if (defOf(def.keyType!).type !== 'string' || defOf(def.keyType!).checks?.length) throw NOT_IN_PLACE;
        return call(of, x, () => `${PLAIN_OBJECT}for(const k in v)if(hasOwn.call(v,k)){const x=v[k];if(!(${test(def.valueType!, 'x')}))return false}return true`);
      default:
        throw NOT_IN_PLACE;
    }
  };

  const root = test(schema, 'v');
  return `"use strict";const hasOwn=Object.prototype.hasOwnProperty,getProto=Object.getPrototypeOf,OP=Object.prototype,isArray=Array.isArray;
${functions.join('\n')}
return function check(v){return ${root}}`;
}
