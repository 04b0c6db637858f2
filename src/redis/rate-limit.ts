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
 *   (the requests of the last minute) and `<prefix>{<prefix>budget}:day:<UTC day>`: the daily cap
 *   is one per client, so its tokens sit with the day's count.
 * Times are Redis's own (`TIME`) and durations the client measured by the service's clock.
 */
import type { RateLimitStep, RateLimitStepResult, RateLimitStore } from '../core/rate-limit.js';
import { errorText } from '../core/text.js';

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
  if kind == 'none' then
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
if perDay > 0 then day = tonumber(redis.call('GET', KEYS[4]) or '0') end
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
  if status == 'taken' and perMinute > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
    if redis.call('ZCARD', KEYS[3]) >= perMinute then
      local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
      status, wait = 'minute', tonumber(oldest[2]) + 60000 - now
    end
  end
  if status == 'taken' or status == 'reserved' then
    if limit ~= nil and limit > 0 then used = used + 1 end
    local hold = wait + tonumber(ARGV[a + 1])
    redis.call('ZADD', KEYS[2], now + hold, id)
    redis.call('PEXPIRE', KEYS[2], math.max(600000, hold))
    if perMinute > 0 then
      redis.call('ZADD', KEYS[3], now, id)
      redis.call('PEXPIRE', KEYS[3], 61000)
    end
    if perDay > 0 then
      day = redis.call('INCR', KEYS[4])
      redis.call('PEXPIRE', KEYS[4], 172800000)
    end
  end
end
local fields = {'window', window, 'ends', ends, 'used', used, 'prov', prov and '1' or '0', 'blocked', blocked, 'length', length}
if limit ~= nil then
  fields[#fields + 1] = 'limit'
  fields[#fields + 1] = limit
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], math.max(600000, ends - now + 60000, blocked - now + 60000))
return {status, math.max(0, math.ceil(wait)), day}
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

/**
 * A {@link RateLimitStore} on Redis. `call` runs one command (bounded in time by the caller);
 * failures reach the client, which goes on with its own view and says so in its log.
 */
export function redisRateLimitStore(call: (args: string[]) => Promise<unknown>, prefix: string, pollMs: number, provisionalMs: number): RateLimitStore {
  return {
    async step(step: RateLimitStep): Promise<RateLimitStepResult> {
      const base = step.budget
        ? `${prefix}{${tagSafe(prefix)}budget}:${step.tokenId}`
        : `${prefix}{t:${tagSafe(step.tokenId)}}`;
      const keys = [`${base}:w`, `${base}:f`, `${base}:m`];
      if (step.budget) keys.push(`${prefix}{${tagSafe(prefix)}budget}:day:${step.budget.day}`);
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
      return { status: reply[0] as RateLimitStepResult['status'], wait: Number(reply[1]) || 0, daySent: Number(reply[2]) || 0 };
    },
  };
}
