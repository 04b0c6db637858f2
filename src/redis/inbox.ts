/**
 * The webhook inbox on Redis Streams: `redisStores(...).inbox`.
 *
 * Each order (return) is a sequence: a sorted set of its waiting events (by event time, then
 * arrival). A sequence with events has exactly one activation: an entry of the stream, handed
 * to one worker at a time by the consumer group; the entry pending on a worker is its hold of the
 * order, renewed by XCLAIM, taken over by XAUTOCLAIM once idle for a lease. A sequence waiting to
 * retry sits in a sorted set by due time instead. Every step is one script, so a key is held,
 * an event completed, a hold checked and released atomically. All keys carry one hash tag, so the
 * inbox lives on one shard of a Redis Cluster.
 */
import { COMPLETED_TTL_MS, type DeadLetter, deadLetterOf, type InboxClaim, type InboxEntry, type WebhookInbox } from '../webhooks/inbox.js';

const GROUP = 'workers';
// A sequence's members are entry ids zero-padded to 16 digits (`%016d`), so ties of one event time fall in arrival order.

/** Shared by the scripts: KEYS[1] is the stream; ARGV[1] the keys' base. */
const COMMON = `
local stream, base = KEYS[1], ARGV[1]
local function seqkey(seq) return base .. 'seq:' .. seq end
local function owns(id, worker)
  local pending = redis.call('XPENDING', stream, '${GROUP}', id, id, 1)
  return pending[1] ~= nil and pending[1][2] == worker
end
local function head(seq)
  local member = redis.call('ZRANGE', seqkey(seq), 0, 0)[1]
  if not member then return nil end
  local id = tostring(tonumber(member))
  return {id, redis.call('HGET', base .. 'entries', id), redis.call('HGET', base .. 'tries', id)}
end
local function finish(activation)
  redis.call('XACK', stream, '${GROUP}', activation)
  redis.call('XDEL', stream, activation)
end
`;

/** ARGV: base, key, entry JSON, event time, sequence. Returns the new id, or 0 for a key held or completed. */
const APPEND = `${COMMON}
local key = base .. 'key:' .. ARGV[2]
if redis.call('EXISTS', key) == 1 then return 0 end
local id = redis.call('INCR', base .. 'ids')
redis.call('SET', key, 'held')
redis.call('HSET', base .. 'entries', id, ARGV[3])
local seq = seqkey(ARGV[5])
redis.call('ZADD', seq, ARGV[4], string.format('%016d', id))
if redis.call('ZCARD', seq) == 1 then redis.call('XADD', stream, '*', 's', ARGV[5]) end
return id`;

/** ARGV: base, worker, count, lease ms, now ms, takeover cursor. Returns {cursor, {activation, sequence, id, entry, tries}...}. */
const CLAIM = `${COMMON}
local worker, count, now = ARGV[2], tonumber(ARGV[3]), ARGV[5]
local waiting = base .. 'waiting'
for _, seq in ipairs(redis.call('ZRANGEBYSCORE', waiting, '-inf', now, 'LIMIT', 0, count)) do
  redis.call('ZREM', waiting, seq)
  redis.call('XADD', stream, '*', 's', seq)
end
local ok, stalled = pcall(redis.call, 'XAUTOCLAIM', stream, '${GROUP}', worker, ARGV[4], ARGV[6], 'COUNT', count)
if not ok then
  if redis.call('EXISTS', stream) == 0 then return {'0-0'} end
  redis.call('XGROUP', 'CREATE', stream, '${GROUP}', '0')
  stalled = {'0-0', {}}
end
local taken = stalled[2]
if #taken < count then
  local fresh = redis.call('XREADGROUP', 'GROUP', '${GROUP}', worker, 'COUNT', count - #taken, 'STREAMS', stream, '>')
  if fresh and fresh[1] then for _, item in ipairs(fresh[1][2]) do taken[#taken + 1] = item end end
end
-- Now and then, forget consumers (workers) that hold nothing and were not seen for an hour: each run of processInbox is one.
if redis.call('INCR', base .. 'sweeps') % 1000 == 0 then
  for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', stream, '${GROUP}')) do
    local fields = {}
    for i = 1, #consumer, 2 do fields[consumer[i]] = consumer[i + 1] end
    if fields['pending'] == 0 and fields['idle'] > 3600000 then redis.call('XGROUP', 'DELCONSUMER', stream, '${GROUP}', fields['name']) end
  end
end
local out = {stalled[1]}
for _, item in ipairs(taken) do
  local seq = item[2][2]
  local next = head(seq)
  if next then out[#out + 1] = {item[1], seq, next[1], next[2], next[3] or false}
  else finish(item[1]) end
end
return out`;

/** ARGV: base, worker, activation. */
const RENEW = `${COMMON}
if not owns(ARGV[3], ARGV[2]) then return 0 end
redis.call('XCLAIM', stream, '${GROUP}', ARGV[2], 0, ARGV[3], 'JUSTID')
return 1`;

/**
 * ARGV: base, worker, activation, sequence, id, key, completed ttl ms, dead letter JSON (bury) or ''.
 * Returns false when the hold was lost, {} when the sequence is done, else its next {id, entry, tries}.
 */
const COMPLETE = `${COMMON}
local worker, activation, seq, id = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if not owns(activation, worker) then return false end
redis.call('ZREM', seqkey(seq), string.format('%016d', tonumber(id)))
redis.call('HDEL', base .. 'entries', id)
redis.call('HDEL', base .. 'tries', id)
if ARGV[8] == '' then redis.call('SET', base .. 'key:' .. ARGV[6], 'done', 'PX', ARGV[7])
else redis.call('HSET', base .. 'dead', id, ARGV[8]) end
local next = head(seq)
if not next then finish(activation) return {} end
redis.call('XCLAIM', stream, '${GROUP}', worker, 0, activation, 'JUSTID')
return {next[1], next[2], next[3] or false}`;

/** ARGV: base, worker, activation, sequence, id, tries JSON or '', retry at ms or '' (release at once). */
const LET_GO = `${COMMON}
local worker, activation, seq = ARGV[2], ARGV[3], ARGV[4]
if not owns(activation, worker) then return 0 end
finish(activation)
if ARGV[6] ~= '' then redis.call('HSET', base .. 'tries', ARGV[5], ARGV[6]) end
if ARGV[7] ~= '' then redis.call('ZADD', base .. 'waiting', ARGV[7], seq)
else redis.call('XADD', stream, '*', 's', seq) end
return 1`;

/** ARGV: base, id, entry JSON, event time, sequence. Puts a dead letter back; 0 when there is none. */
const RETRY = `${COMMON}
local id, seq = ARGV[2], ARGV[5]
if redis.call('HDEL', base .. 'dead', id) == 0 then return 0 end
redis.call('HSET', base .. 'entries', id, ARGV[3])
local key = seqkey(seq)
redis.call('ZADD', key, ARGV[4], string.format('%016d', tonumber(id)))
if redis.call('ZCARD', key) == 1 and redis.call('ZSCORE', base .. 'waiting', seq) == false then
  redis.call('XADD', stream, '*', 's', seq)
end
return 1`;

/** ARGV: base, id, key, completed ttl ms. */
const DROP = `${COMMON}
if redis.call('HDEL', base .. 'dead', ARGV[2]) == 0 then return 0 end
redis.call('SET', base .. 'key:' .. ARGV[3], 'done', 'PX', ARGV[4])
return 1`;

/** What an entry carries besides its id and tries (stored once, never rewritten). */
type StoredEntry = Omit<InboxEntry, 'id' | 'attempts' | 'lastError' | 'lastTriedAt'>;
/** The tries of an entry, rewritten with each failure. */
interface Tries {
  attempts: number;
  lastError?: string | undefined;
  lastTriedAt?: number | undefined;
}

/**
 * The inbox on the keys `<prefix>inbox:{<prefix>inbox}:…` (one hash tag). `run` sends one command
 * and rejects when Redis fails or is slow: the handler then answers 500, and `processInbox` tries again.
 */
export function redisInbox(run: (args: string[]) => Promise<unknown>, prefix: string): WebhookInbox {
  const base = `${prefix}inbox:{${prefix.replace(/[{}]/g, '')}inbox}:`;
  const stream = `${base}stream`;
  const script = (source: string, ...args: (string | number)[]) => run(['EVAL', source, '1', stream, base, ...args.map(String)]);
  /** The takeover scan's cursor, by worker, so a long list of pending entries is walked through rather than its start again and again. */
  const cursors = new Map<string, string>();

  const entryOf = (id: string, stored: string, tries: string | false): InboxEntry => ({
    ...(JSON.parse(stored) as StoredEntry),
    id,
    ...(tries ? (JSON.parse(tries) as Tries) : { attempts: 0 }),
  });
  const nextOf = (reply: unknown): InboxEntry | undefined => {
    if (!Array.isArray(reply) || reply.length < 2) return undefined;
    const [id, stored, tries] = reply as [number | string, string, string | false];
    return entryOf(String(id), stored, tries);
  };
  const settle = async (claim: InboxClaim, deadLetter: string): Promise<InboxEntry | undefined> => {
    const reply = await script(COMPLETE, claim.worker, claim.token, claim.sequence, claim.entry.id, claim.entry.key, COMPLETED_TTL_MS, deadLetter);
    return nextOf(reply);
  };
  const deadEntries = async (): Promise<InboxEntry[]> => {
    const reply = (await run(['HGETALL', `${base}dead`])) as unknown;
    // node-redis answers an object (RESP3 map, or its v4 transform), ioredis's call a flat list.
    const pairs: [string, string][] = Array.isArray(reply)
      ? Array.from({ length: reply.length / 2 }, (_, i) => [String(reply[2 * i]), String(reply[2 * i + 1])])
      : Object.entries((reply ?? {}) as Record<string, string>);
    return pairs.map(([id, json]) => ({ ...(JSON.parse(json) as InboxEntry), id })).sort((a, b) => Number(a.id) - Number(b.id));
  };
  const deadEntry = async (id: string): Promise<InboxEntry | undefined> => {
    const json = await run(['HGET', `${base}dead`, id]);
    return typeof json === 'string' ? { ...(JSON.parse(json) as InboxEntry), id } : undefined;
  };

  return {
    async append(delivery) {
      const { key, eventTime, sequence } = delivery;
      const stored: StoredEntry = { ...delivery, retryFrom: delivery.receivedAt };
      return Number(await script(APPEND, key, JSON.stringify(stored), eventTime, sequence)) > 0;
    },
    async claim(worker, count, leaseMs) {
      const reply = (await script(CLAIM, worker, count, Math.max(1, Math.ceil(leaseMs)), Date.now(), cursors.get(worker) ?? '0-0')) as unknown[];
      cursors.set(worker, String(reply[0]));
      return reply.slice(1).map((item) => {
        const [activation, sequence, id, stored, tries] = item as [string, string, number | string, string, string | false];
        // The token is the stream entry the worker holds: its activation of the sequence.
        return { sequence, worker, token: activation, entry: entryOf(String(id), stored, tries) } satisfies InboxClaim;
      });
    },
    async renew(claim) {
      return Number(await script(RENEW, claim.worker, claim.token)) === 1;
    },
    complete: (claim) => settle(claim, ''),
    async bury(claim, failure) {
      const entry: InboxEntry = { ...claim.entry, attempts: failure.attempts, lastError: failure.error, lastTriedAt: failure.triedAt };
      return settle(claim, JSON.stringify(entry));
    },
    async postpone(claim, failure) {
      const tries: Tries = { attempts: failure.attempts, lastError: failure.error, lastTriedAt: failure.triedAt };
      await script(LET_GO, claim.worker, claim.token, claim.sequence, claim.entry.id, JSON.stringify(tries), failure.retryAt);
    },
    async release(claim) {
      await script(LET_GO, claim.worker, claim.token, claim.sequence, claim.entry.id, '', '');
    },
    async deadLetters(): Promise<DeadLetter[]> {
      return (await deadEntries()).map(deadLetterOf);
    },
    async retry(id) {
      const entry = await deadEntry(id);
      if (entry === undefined) return false;
      const { id: _, attempts: __, lastError: ___, lastTriedAt: ____, ...stored } = entry;
      return Number(await script(RETRY, id, JSON.stringify({ ...stored, retryFrom: Date.now() }), entry.eventTime, entry.sequence)) === 1;
    },
    async drop(id) {
      const entry = await deadEntry(id);
      if (entry === undefined) return false;
      return Number(await script(DROP, id, entry.key, COMPLETED_TTL_MS)) === 1;
    },
  };
}
