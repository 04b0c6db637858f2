/**
 * The shared rate-limit state on Redis: one script per step, run atomically, with the same
 * rules as the client's own view (core/rate-limit-window.ts): apply the answers that came
 * back, then take a slot for a request (the service's window, the per-minute and the daily
 * budget at once) or say how long to wait. No read-then-write, so no retries under contention.
 *
 * Keys, each under a hash tag so a step's keys share one Redis Cluster slot:
 * - a merchant API token: `<prefix>{t:<token id>}:w` (its window, a hash) and `…:f` (its
 *   requests out, a sorted set by when their hold ends): every token on a slot of its own;
 * - the budgeted APIs (catalog, account): `<prefix>{<prefix>budget}:<token id>:w`, `…:f`, `…:m`
 *   (the requests of the last minute, each scored by the latest time it may leave, and the
 *   leases' units), `…:l:<UTC day>` (the leases: units held per client) and
 *   `<prefix>{<prefix>budget}:day:<UTC day>`: the daily cap is one per client, so its tokens sit
 *   with the day's count.
 *
 * The lease is what makes the budgets fail closed: each store (one per process, usually) holds a
 * few units of the day (a hundredth of it, at most a twentieth of the minute, all leases together
 * at most a tenth of it), each counted in the day and in the minute already, which it spends only
 * while Redis does not answer, within a minute of the step that last renewed it. So what the
 * processes send without Redis was counted in Redis before: never more than the caps in all.
 * Times are Redis's own (`TIME`) and durations the client measured by the service's clock.
 */
import type { RateLimitStep, RateLimitStepResult, RateLimitStore } from '../core/rate-limit.js';
import { errorText } from '../core/text.js';
import type { RoundTrip } from './round-trip.js';

const STEP_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'limit', 'window', 'ends', 'used', 'prov', 'blocked', 'length')
local limit = tonumber(s[1])
local window = tonumber(s[2]) or 0
local ends = tonumber(s[3]) or 0
local used = tonumber(s[4]) or 0
local prov = s[5] == '1'
local blocked = tonumber(s[6]) or 0
local length = tonumber(s[7]) or 0
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local a = 2
for i = 1, tonumber(ARGV[1]) do
  local id, kind = ARGV[a], ARGV[a + 1]
  local L, r, R, inMs = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5])
  a = a + 6
  if id ~= '' then redis.call('ZREM', KEYS[2], id) end
  if kind == 'unsent' then
    if KEYS[4] and redis.call('ZREM', KEYS[3], id) == 1 then redis.call('DECR', KEYS[4]) end
  elseif kind == 'none' then
    if limit == nil or prov then limit = 0 end
  elseif kind == 'exhaust' then
    blocked = math.max(blocked, now + inMs)
  elseif kind == 'figures' then
    local counted = L - r
    local known = limit ~= nil and limit > 0
    local misscheduled = R < window and R > window - length / 1000
    if not known or R > window or misscheduled then
      local nextWindow = R - window
      if known and prov and nextWindow > 0 then
        if length > 0 then length = math.min(length, nextWindow * 1000) else length = nextWindow * 1000 end
      elseif misscheduled then
        length = 0
      end
      if known and prov then used = math.max(used, counted) else used = counted + redis.call('ZCARD', KEYS[2]) end
      limit, window, ends, prov = L, R, now + inMs, false
    elseif R == window and not prov then
      used = math.max(used, counted)
      limit = L
      ends = math.min(ends, now + inMs)
    end
  end
end
local status, wait, day = 'settled', 0, 0
local id = ARGV[a]
local perMinute, perDay = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
local sendWithin = tonumber(ARGV[a + 6])
if perDay > 0 then day = tonumber(redis.call('GET', KEYS[4]) or '0') end
if perMinute > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000) end
-- The client's lease (the budgeted APIs): units of the day, each with a minute entry ("holder:k",
-- scored by the latest time it may be sent), that the client spends only while it cannot reach
-- this store. First the units it spent so (their entries stay, as sends), then those it gives back.
local holder, held, leaseEnds = ARGV[a + 7], 0, 0
if holder ~= '' and perDay > 0 then
  local spentTotal, giving, leaseMs = tonumber(ARGV[a + 8]), tonumber(ARGV[a + 9]), tonumber(ARGV[a + 10])
  local h = redis.call('HMGET', KEYS[5], holder, holder .. ':r')
  held = tonumber(h[1]) or 0
  local reported = tonumber(h[2]) or 0
  local spent = math.min(held, math.max(0, spentTotal - reported))
  for k = held - spent + 1, held do
    local member = holder .. ':' .. k
    local score = redis.call('ZSCORE', KEYS[3], member)
    redis.call('ZREM', KEYS[3], member)
    if score then redis.call('ZADD', KEYS[3], score, member .. ':' .. (reported + k)) end
  end
  held = held - spent
  leaseEnds = tonumber(redis.call('ZSCORE', KEYS[3], holder .. ':1') or '0')
  -- Units whose entries lapsed (no step refreshed them for their whole lease and a minute) go back, as do those given.
  if leaseEnds == 0 then giving = held end
  giving = math.min(giving, held)
  for k = held - giving + 1, held do redis.call('ZREM', KEYS[3], holder .. ':' .. k) end
  held = held - giving
  if giving > 0 then day = redis.call('DECRBY', KEYS[4], giving) end
  if spent + giving > 0 then redis.call('HINCRBY', KEYS[5], '*', -(spent + giving)) end
  -- Held longer only while the minute has room for them at any time from now (they count in it already).
  if held > 0 and redis.call('ZCOUNT', KEYS[3], '(' .. (now - 60000), '+inf') <= perMinute then
    leaseEnds = now + leaseMs
    for k = 1, held do redis.call('ZADD', KEYS[3], 'XX', 'GT', leaseEnds, holder .. ':' .. k) end
  end
  redis.call('HSET', KEYS[5], holder, held, holder .. ':r', math.max(reported, spentTotal))
  redis.call('PEXPIRE', KEYS[5], 172800000)
end
if id ~= '' then
  status = 'taken'
  if perDay > 0 and day >= perDay then
    status = 'refused'
  elseif now < blocked then
    status, wait = 'window', blocked - now
  elseif limit == nil then
    if redis.call('ZCARD', KEYS[2]) > 0 then status, wait = 'figures', tonumber(ARGV[a + 4]) end
  elseif limit > 0 then
    if now >= ends then
      if length > 0 then
        local windows = math.floor((now - ends) / length) + 1
        ends = ends + windows * length
        window = window + windows * length / 1000
        used = math.max(used - windows * limit, redis.call('ZCARD', KEYS[2]))
      else
        prov, used, ends = true, redis.call('ZCARD', KEYS[2]), now + tonumber(ARGV[a + 5])
      end
    end
    if length > 0 and not prov and used < limit and ends - now < math.min(length / 5, 1000) then used = limit end
    if used >= limit then
      if length > 0 and not prov then
        status, wait = 'reserved', ends + (math.floor(used / limit) - 1) * length - now
      else
        status, wait = 'window', ends - now
      end
    end
  end
  -- The minute counts a request by the latest time it may leave (the client takes a slot again when
  -- it could not send by then): no 60 s holds more than perMinute of what is counted at its latest, so
  -- none holds more than perMinute of what reached the service (an entry's time is never before its send).
  if (status == 'taken' or status == 'reserved') and perMinute > 0 then
    local earliest = now + wait - 60000
    local counted = redis.call('ZCOUNT', KEYS[3], '(' .. earliest, '+inf')
    if counted >= perMinute then
      local nth = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. earliest, '+inf', 'WITHSCORES', 'LIMIT', counted - perMinute, 1)
      status, wait = 'minute', math.max(1, tonumber(nth[2]) + 60000 - now)
    end
  end
  if status == 'taken' or status == 'reserved' then
    if limit ~= nil and limit > 0 then used = used + 1 end
    local hold = wait + tonumber(ARGV[a + 1])
    redis.call('ZADD', KEYS[2], now + hold, id)
    redis.call('PEXPIRE', KEYS[2], math.max(600000, hold))
    if perMinute > 0 then
      redis.call('ZADD', KEYS[3], now + wait + sendWithin, id)
      redis.call('PEXPIRE', KEYS[3], math.max(61000, wait + sendWithin + 61000, leaseEnds - now + 61000))
    end
    if perDay > 0 then
      day = redis.call('INCR', KEYS[4])
      redis.call('PEXPIRE', KEYS[4], 172800000)
    end
  end
  -- A lease filled up while the day and the minute have room to spare (twice what it takes), a
  -- twentieth of the minute at most, and the leases of all the clients a tenth (what idle ones hold
  -- stays out of use until their lease lapses, a minute after it ends).
  local size = holder ~= '' and perDay > 0 and math.min(math.ceil(perDay / 100), math.floor(perMinute / 20)) or 0
  local more = size - held
  if more > 0 and tonumber(ARGV[a + 9]) == 0 and day + 2 * more <= perDay and redis.call('ZCARD', KEYS[3]) + 2 * more <= perMinute
    and tonumber(redis.call('HGET', KEYS[5], '*') or '0') + more <= math.floor(perMinute / 10) then
    leaseEnds = now + tonumber(ARGV[a + 10])
    for k = held + 1, size do redis.call('ZADD', KEYS[3], leaseEnds, holder .. ':' .. k) end
    for k = 1, held do redis.call('ZADD', KEYS[3], 'XX', 'GT', leaseEnds, holder .. ':' .. k) end
    held = size
    day = redis.call('INCRBY', KEYS[4], more)
    redis.call('PEXPIRE', KEYS[3], leaseEnds - now + 61000)
    redis.call('HSET', KEYS[5], holder, held)
    redis.call('HINCRBY', KEYS[5], '*', more)
  end
end
local fields = {'window', window, 'ends', ends, 'used', used, 'prov', prov and '1' or '0', 'blocked', blocked, 'length', length}
if limit ~= nil then
  fields[#fields + 1] = 'limit'
  fields[#fields + 1] = limit
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], math.max(600000, ends - now + 60000, blocked - now + 60000))
return {status, math.max(0, math.ceil(wait)), day, held, math.max(0, leaseEnds - now)}
`;

/** The script's SHA-1, hex, for EVALSHA: computed once. */
let stepScriptSha: Promise<string> | undefined;
const scriptSha = (): Promise<string> =>
  (stepScriptSha ??= crypto.subtle.digest('SHA-1', new TextEncoder().encode(STEP_SCRIPT)).then((digest) =>
    Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join(''),
  ));

/** A hash tag holds the text between the first `{` and the next `}`: neither may be in it. */
const tagSafe = (text: string) => text.replace(/[{}]/g, '_');

const STATUSES = new Set<RateLimitStepResult['status']>(['taken', 'reserved', 'window', 'minute', 'figures', 'refused', 'settled']);

/** A slot counts in the minute until at least this long after it was asked for (or three round trips): slack for a busy process. */
const SEND_WITHIN_MS = 2_000;
/** How long a lease's units may be spent after the last step that renewed it. */
const LEASE_MS = 60_000;

/**
 * This store's lease of one budgeted token's day (see the script): units held, and the units
 * spent without the store and given back, counted from the start (the script counts what it
 * was told), so a reply that crossed a later spend or give is corrected by them.
 */
interface Lease {
  day: number;
  held: number;
  spent: number;
  given: number;
  /** Until when (this host's clock) the held units may be spent without the store. */
  until: number;
}

/**
 * A {@link RateLimitStore} on Redis. `call` runs one command (bounded in time by the caller).
 * A failure of a step that is not budgeted reaches the client, which goes on with its own view
 * and says so in its log. A budgeted take (catalog, account) fails closed: without Redis it is
 * counted against this store's lease, units of the day and the minute reserved in Redis in
 * advance, or not at all (the client waits for Redis, within the call's timeout).
 */
export function redisRateLimitStore(
  call: (args: string[]) => Promise<unknown>,
  prefix: string,
  pollMs: number,
  provisionalMs: number,
  roundTrip: RoundTrip,
): RateLimitStore {
  const instance = Math.random().toString(36).slice(2, 12);
  const leases = new Map<string, Lease>();

  const run = async (step: RateLimitStep, lease: Lease | undefined, giving: number): Promise<unknown[]> => {
    const base = step.budget
      ? `${prefix}{${tagSafe(prefix)}budget}:${step.tokenId}`
      : `${prefix}{t:${tagSafe(step.tokenId)}}`;
    const keys = [`${base}:w`, `${base}:f`, `${base}:m`];
    if (step.budget) keys.push(`${prefix}{${tagSafe(prefix)}budget}:day:${step.budget.day}`, `${base}:l:${step.budget.day}`);
    const args = [String(keys.length), ...keys, String(step.settles.length)];
    for (const settle of step.settles) {
      args.push(settle.id, settle.kind, String(settle.limit), String(settle.remaining), String(settle.window), String(Math.ceil(settle.resetInMs)));
    }
    const take = step.take;
    args.push(
      take?.id ?? '',
      String(Math.max(1, Math.ceil(take?.holdMs ?? 1))),
      String(step.budget?.perMinute ?? 0),
      String(step.budget?.perDay ?? 0),
      String(pollMs),
      String(provisionalMs),
      String(Math.ceil(sendWithin())),
      lease ? `${instance}:${lease.day}` : '',
      String(lease?.spent ?? 0),
      String(giving),
      String(LEASE_MS),
    );
    // The script by its hash; sent whole only when this Redis has not seen it yet (or forgot it).
    let reply: unknown;
    try {
      reply = await call(['EVALSHA', await scriptSha(), ...args]);
    } catch (error) {
      if (!errorText(error).includes('NOSCRIPT')) throw error;
      reply = await call(['EVAL', STEP_SCRIPT, ...args]);
    }
    if (!Array.isArray(reply) || !STATUSES.has(reply[0] as RateLimitStepResult['status'])) throw new Error('unexpected rate-limit script reply');
    return reply;
  };
  /** The slack a slot leaves between its handing out and its request's leaving. */
  const sendWithin = () => Math.max(SEND_WITHIN_MS, 3 * roundTrip.ms);

  /** One step, and for a lease what the reply says of it (less what was spent or given since it was sent). */
  const stepWith = async (step: RateLimitStep, lease: Lease | undefined, giving: number): Promise<RateLimitStepResult> => {
    const asked = Date.now();
    const [spent, given] = [lease?.spent ?? 0, lease?.given ?? 0];
    const reply = await run(step, lease, giving);
    const answered = Date.now();
    if (lease) {
      lease.held = Math.max(0, (Number(reply[3]) || 0) - (lease.spent - spent) - (lease.given - given));
      lease.until = asked + (Number(reply[4]) || 0);
    }
    // The slot was handed out after `asked`: what is left of its slack once the answer is here.
    return { status: reply[0] as RateLimitStepResult['status'], wait: Number(reply[1]) || 0, daySent: Number(reply[2]) || 0, sendWithin: sendWithin() - (answered - asked) };
  };

  return {
    async step(step: RateLimitStep): Promise<RateLimitStepResult> {
      let lease: Lease | undefined;
      if (step.budget && step.budget.perDay > 0) {
        lease = leases.get(step.tokenId);
        if (lease?.day !== step.budget.day) {
          lease = { day: step.budget.day, held: 0, spent: 0, given: 0, until: 0 };
          leases.set(step.tokenId, lease);
        }
      }
      try {
        const result = await stepWith(step, lease, 0);
        if (!lease || lease.held === 0 || (result.status !== 'refused' && result.status !== 'minute')) return result;
        // The day or the minute is spent but for what this store holds: a unit given back goes to this
        // request (one each, so every request refused meanwhile can have one).
        lease.held--;
        lease.given++;
        return await stepWith({ ...step, settles: [] }, lease, 1);
      } catch (error) {
        // Without Redis, a budgeted request goes only on a unit this store holds, and only while
        // the lease stands (its minute entries are scored by its end); the next step reports it.
        if (!step.take || !lease || lease.held === 0 || Date.now() >= lease.until) throw error;
        lease.held--;
        lease.spent++;
        return { status: 'taken', wait: 0, daySent: 0, sendWithin: lease.until - Date.now() };
      }
    },
  };
}
