import type * as z from 'zod/mini';

/** What the SDK reads of a zod/mini schema's definition to walk it (drift paths, in-place checks, the vendor's spelling). */
export interface Definition {
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

/** A schema's zod definition. */
export const defOf = (schema: z.ZodMiniType): Definition => (schema as unknown as { _zod: { def: Definition } })._zod.def;
