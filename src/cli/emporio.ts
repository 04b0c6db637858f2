#!/usr/bin/env node
/**
 * `emporio`: the SDK from a shell.
 *   emporio check-keys [--base-url URL] [--vendor NAME] [--timeout MS]
 *   emporio feed check|convert ...
 *   emporio inbox list|show|retry|drop ...
 */
import { parseArgs } from 'node:util';
import { MarketplaceClient } from '../client.js';
import { AuthenticationError, PermissionDeniedError } from '../core/errors.js';
import { scrub, thrownText } from '../core/logger.js';
import { escapeControlCharacters, withoutBearerPrefix } from '../core/text.js';
import { BASE_URL_VARIABLE, KEY_VARIABLES, readVariable, TOKEN_VARIABLE, VENDOR_VARIABLE } from '../core/env.js';
import type { ApiName } from '../core/options.js';
import type { KeyCheck, KeyReport } from '../resources/keys.js';
import { FEED_USAGE, runFeedCommand } from './feed.js';
import { INBOX_USAGE, runInboxCommand } from './inbox.js';

// Keys are read from the environment (the variables MarketplaceClient.fromEnv reads), never the
// command line: other users can read that.
KEY_VARIABLES satisfies readonly (readonly [keyof KeyReport, string])[];
const KEY_MEANING: Record<(typeof KEY_VARIABLES)[number][0], string> = {
  orders: 'the Orders API key (FBS calls use it too)',
  products: 'the Products API key',
  cps: 'the CPS orders API key',
};

const USAGE = `Usage: emporio check-keys [--base-url URL] [--vendor NAME] [--timeout MS]

Tries each merchant key once with a call that changes nothing (the orders key reads the
sandbox order DEMO-OPEN, the products key sends one validation request, which applies
nothing) and prints, per key, ok or refused with the answer's request id. Run it after
generating a new key in the merchant panel: a new key expires the old one.

Keys, from the environment (only those set are tried), as MarketplaceClient.fromEnv reads them:
${KEY_VARIABLES.map(([api, variable]) => `  ${variable.padEnd(24)}${KEY_MEANING[api]}`).join('\n')}
  ${TOKEN_VARIABLE.padEnd(24)}the key of each API whose own variable is not set

Options (or environment variables):
  --base-url URL   ${BASE_URL_VARIABLE}   the API's base URL, e.g. https://api.example.gr
  --vendor NAME    ${VENDOR_VARIABLE}     the vendor of the Accept header (application/vnd.<vendor>+json)
  --timeout MS     EMPORIO_TIMEOUT    milliseconds per request (default 30000)

Exit status: 0 every key set was accepted; 1 a key was refused or could not be tried;
2 a usage error. Tokens are never printed.

${FEED_USAGE.replace(/^Usage: +/, '').replace(/^ {7}/m, '')}

${INBOX_USAGE.replace(/^Usage: +/, '')}`;

class UsageError extends Error {}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv[0] === 'feed') return runFeedCommand(argv.slice(1), (message) => new UsageError(message));
  if (argv[0] === 'inbox') return runInboxCommand(argv.slice(1), env, (message) => new UsageError(message));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      vendor: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'check-keys') {
    throw new UsageError(positionals.length === 0 ? 'no command given' : `unknown command: ${positionals.join(' ')}`);
  }
  const baseUrl = values['base-url'] ?? readVariable(env, BASE_URL_VARIABLE);
  const vendor = values.vendor ?? readVariable(env, VENDOR_VARIABLE);
  if (!baseUrl) throw new UsageError(`no base URL: pass --base-url or set ${BASE_URL_VARIABLE}`);
  if (!vendor) throw new UsageError(`no vendor: pass --vendor or set ${VENDOR_VARIABLE}`);
  const timeoutText = values.timeout ?? env.EMPORIO_TIMEOUT;
  const timeout = timeoutText === undefined ? undefined : Number(timeoutText);

  const tokens: Partial<Record<ApiName, string>> = {};
  const fallback = readVariable(env, TOKEN_VARIABLE);
  for (const [api, variable] of KEY_VARIABLES) {
    const token = readVariable(env, variable) ?? fallback;
    // As the client takes it (without a copied `Bearer `), so the printed text is scrubbed of what is sent.
    if (token) tokens[api] = withoutBearerPrefix(token);
  }
  if (Object.keys(tokens).length === 0) {
    throw new UsageError(`no key to check: set ${[...KEY_VARIABLES.map(([, variable]) => variable), TOKEN_VARIABLE].join(', ')}`);
  }
  // Whatever is printed goes through this: the SDK keeps tokens out of its messages, and this makes sure;
  // a server's control characters are shown escaped (no terminal escape sequence reaches the terminal).
  const hide = (text: string) => escapeControlCharacters(Object.values(tokens).reduce((shown, token) => scrub(shown, token), text));

  let client: MarketplaceClient;
  try {
    client = new MarketplaceClient({ baseUrl, vendor, tokens, ...(timeout === undefined ? {} : { timeout }) });
  } catch (error) {
    throw new UsageError(hide((error as Error).message));
  }
  console.log(hide(`checking keys against ${baseUrl}`));
  const report = await client.checkKeys();
  let failed = 0;
  for (const [api, variable] of KEY_VARIABLES) {
    const check: KeyCheck | undefined = report[api];
    if (check === undefined) {
      console.log(`  ${api.padEnd(9)}not set (${variable})`);
    } else if (check.ok) {
      console.log(hide(`  ${api.padEnd(9)}ok${check.requestId ? `       request id ${check.requestId}` : ''}`));
    } else {
      failed++;
      const { error } = check;
      const verdict = error instanceof AuthenticationError || error instanceof PermissionDeniedError ? 'refused' : 'failed ';
      const requestId = (error as { requestId?: string | undefined }).requestId;
      console.log(hide(`  ${api.padEnd(9)}${verdict}  ${error.message}${requestId ? ` [request id ${requestId}]` : ''}`));
    }
  }
  if (failed > 0) console.log('Support asks for the request id of an answer you cannot explain.');
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string | undefined })?.code?.startsWith('ERR_PARSE_ARGS');
    console.error(`emporio: ${escapeControlCharacters(error instanceof Error ? error.message : thrownText(error))}`);
    if (usage) console.error("Run 'emporio --help' for usage.");
    process.exitCode = usage ? 2 : 1;
  },
);
