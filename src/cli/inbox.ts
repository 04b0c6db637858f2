/**
 * `emporio inbox list|show|retry|drop`: the webhook inbox's dead letters on Redis. The Redis
 * client (node-redis or ioredis, whichever is installed) is loaded only for these commands.
 */
import { parseArgs } from 'node:util';
import { escapeControlCharacters } from '../core/text.js';
import { type RedisClientLike, redisStores } from '../redis/index.js';
import type { DeadLetter } from '../webhooks/inbox.js';

export const REDIS_URL_VARIABLE = 'EMPORIO_REDIS_URL';

export const INBOX_USAGE = `Usage: emporio inbox list [--json]
       emporio inbox show <id> [--json]
       emporio inbox retry <id>
       emporio inbox drop <id>

The webhook inbox's dead letters: events processInbox gave up on after their retry period.
list     one line per dead letter: id, order (or return), event type, attempts, last try, last error
show     one dead letter in full (the event as received)
retry    puts it back in its order's events, its retry period starting again
drop     removes it (a redelivery of it is still not taken again)

Options (or environment variables):
  --redis-url URL  ${REDIS_URL_VARIABLE}   the Redis the inbox is on (redis://[:password@]host:port[/db]); never printed
  --prefix P                          the prefix given to redisStores (default emporio:)
  --json                              print JSON

Needs node-redis (redis) or ioredis installed. Exit status: 0 done; 1 no such dead letter, or Redis
could not be reached; 2 a usage error.`;

const CONNECT_TIMEOUT_MS = 5_000;

interface Connection {
  client: RedisClientLike;
  close(): Promise<void>;
}

export async function runInboxCommand(argv: string[], env: NodeJS.ProcessEnv, usageError: (message: string) => Error): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'redis-url': { type: 'string' }, prefix: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(INBOX_USAGE);
    return 0;
  }
  const [command, id, ...extra] = positionals;
  const needsId = command === 'show' || command === 'retry' || command === 'drop';
  if (!(command === 'list' || needsId) || (needsId ? id === undefined : id !== undefined) || extra.length > 0) {
    throw usageError(command === undefined ? 'inbox: no command given (list, show, retry or drop)' : `inbox: wrong use of ${command}; see emporio inbox --help`);
  }
  const url = values['redis-url'] ?? env[REDIS_URL_VARIABLE];
  if (!url) throw usageError(`inbox: no Redis URL: pass --redis-url or set ${REDIS_URL_VARIABLE}`);
  const hide = secretHider(url);
  let connection: Connection;
  try {
    connection = await connect(url);
  } catch (error) {
    console.error(hide(`emporio: Redis could not be reached at ${redactedUrl(url)}: ${(error as Error)?.message ?? error}`));
    return 1;
  }
  try {
    const { inbox } = redisStores(connection.client, { prefix: values.prefix ?? 'emporio:', timeoutMs: CONNECT_TIMEOUT_MS, logger: { warn() {}, info() {} } });
    const out = (text: string) => console.log(hide(text));
    if (command === 'list') {
      const letters = await inbox.deadLetters();
      if (values.json) out(JSON.stringify(letters, null, 2));
      else if (letters.length === 0) out('no dead letters');
      else for (const letter of letters) out(line(letter));
      return 0;
    }
    if (command === 'show') {
      const letter = (await inbox.deadLetters()).find((candidate) => candidate.id === id);
      if (letter === undefined) return notFound(id as string, hide);
      out(values.json ? JSON.stringify(letter, null, 2) : `${line(letter)}\n${JSON.stringify(letter.event, null, 2)}`);
      return 0;
    }
    const done = command === 'retry' ? await inbox.retry(id as string) : await inbox.drop(id as string);
    if (!done) return notFound(id as string, hide);
    out(values.json ? JSON.stringify({ id, [command === 'retry' ? 'retried' : 'dropped']: true }) : `${id}: ${command === 'retry' ? 'put back' : 'dropped'}`);
    return 0;
  } catch (error) {
    console.error(hide(`emporio: ${(error as Error)?.message ?? error}`));
    return 1;
  } finally {
    await connection.close().catch(() => {});
  }
}

function notFound(id: string, hide: (text: string) => string): number {
  console.error(hide(`emporio: no dead letter ${id}`));
  return 1;
}

/** One dead letter on one line; what the sender or the app wrote is shown escaped. */
function line(letter: DeadLetter): string {
  const event = letter.event as { event_type?: unknown; order?: { code?: unknown }; return?: { return_code?: unknown } };
  const subject = event.return?.return_code ?? event.order?.code ?? '-';
  return escapeControlCharacters(
    [letter.id, String(subject), String(event.event_type), `${letter.attempts} attempts`, `last ${letter.lastTriedAt.toISOString()}`, letter.error.slice(0, 200)].join('  '),
  );
}

/** The URL without its password (and user name), for messages. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password || parsed.username) {
      parsed.password = '';
      parsed.username = '';
      return parsed.toString().replace('//', '//***@');
    }
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** Whatever is printed goes through this: the URL's password, as written or decoded, never appears. */
function secretHider(url: string): (text: string) => string {
  let secrets: string[] = [];
  try {
    const { password, username } = new URL(url);
    secrets = [password, decodeURIComponent(password), username, decodeURIComponent(username)].filter((secret) => secret.length >= 3);
  } catch {
    secrets = [url];
  }
  return (text) => secrets.reduce((shown, secret) => shown.split(secret).join('***'), text);
}

/** node-redis if installed, else ioredis: connected once, failing within a few seconds rather than retrying for ever. */
async function connect(url: string): Promise<Connection> {
  const nodeRedis = await import('redis').catch(() => undefined);
  if (nodeRedis) {
    const client = nodeRedis.createClient({ url, socket: { reconnectStrategy: false, connectTimeout: CONNECT_TIMEOUT_MS } });
    client.on('error', () => {});
    await client.connect();
    return { client: client as unknown as RedisClientLike, close: async () => void client.destroy() };
  }
  const ioredis = await import('ioredis').catch(() => undefined);
  if (ioredis) {
    const client = new ioredis.Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: CONNECT_TIMEOUT_MS });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  }
  throw new Error('neither node-redis (npm install redis) nor ioredis (npm install ioredis) is installed');
}
