/**
 * The environment variables the SDK reads: `MarketplaceClient.fromEnv` and `emporio check-keys`
 * share this one list. Read through `globalThis.process`, so the root entry imports nothing
 * Node-only (Bun and Deno have `process.env` too; elsewhere there is no environment).
 */
import type { ApiName, ClientOptions } from './options.js';

export const BASE_URL_VARIABLE = 'EMPORIO_BASE_URL';
export const VENDOR_VARIABLE = 'EMPORIO_VENDOR';
/** The default token of every namespace (`token`). */
export const TOKEN_VARIABLE = 'EMPORIO_TOKEN';

/** Each merchant key's own variable (`tokens.<api>`). */
export const KEY_VARIABLES = [
  ['orders', 'EMPORIO_ORDERS_TOKEN'],
  ['products', 'EMPORIO_PRODUCTS_TOKEN'],
  ['cps', 'EMPORIO_CPS_TOKEN'],
] as const satisfies readonly (readonly [ApiName, string])[];

export type Environment = Readonly<Record<string, string | undefined>>;

/** The process's environment, or an empty one where there is none (a browser, an edge worker). */
export function processEnv(): Environment {
  return (globalThis as { process?: { env?: Environment | undefined } | undefined }).process?.env ?? {};
}

/** A variable's value, trimmed; unset and blank are the same. */
export function readVariable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * `MarketplaceClient.fromEnv`'s options: the environment's base URL, vendor and tokens, with
 * `overrides` on top (its `tokens` merged over the environment's, key by key).
 */
export function optionsFromEnv(overrides: Partial<ClientOptions> = {}, env: Environment = processEnv()): ClientOptions {
  const baseUrl = overrides.baseUrl ?? readVariable(env, BASE_URL_VARIABLE);
  if (baseUrl === undefined) throw new TypeError(`MarketplaceClient.fromEnv: baseUrl: set ${BASE_URL_VARIABLE} or pass { baseUrl }`);
  const vendor = overrides.vendor ?? readVariable(env, VENDOR_VARIABLE);
  if (vendor === undefined) throw new TypeError(`MarketplaceClient.fromEnv: vendor: set ${VENDOR_VARIABLE} or pass { vendor }`);
  const tokens: NonNullable<ClientOptions['tokens']> = {};
  for (const [api, variable] of KEY_VARIABLES) {
    const value = readVariable(env, variable);
    if (value !== undefined) tokens[api] = value;
  }
  for (const [api, value] of Object.entries(overrides.tokens ?? {})) if (value !== undefined) tokens[api as ApiName] = value;
  const token = overrides.token ?? readVariable(env, TOKEN_VARIABLE);
  if (token === undefined && Object.keys(tokens).length === 0) {
    const names = [TOKEN_VARIABLE, ...KEY_VARIABLES.map(([, variable]) => variable)].join(', ');
    throw new TypeError(`MarketplaceClient.fromEnv: no token: set one of ${names}, or pass { token } or { tokens }`);
  }
  return { ...overrides, baseUrl, vendor, ...(token === undefined ? {} : { token }), tokens };
}
