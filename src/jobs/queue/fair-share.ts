import type { Redis } from 'ioredis';
import { CompanyQueueFullError } from './company-queue-full.js';
import type { QueueNames } from './queue-names.js';

/**
 * Fair sharing of the workers between companies, on BullMQ's open-source priorities (BullMQ Pro's
 * groups are not used): start-time fair queueing. Every company has its own line, and a job's
 * priority is its place in a virtual clock, `max(company's next place, the clock)`, where the
 * clock is the priority of the last job a worker took. A company that enqueues 1,000 jobs at
 * once gets places 1 to 1,000 ahead of the clock; one that enqueues a job then gets the clock's
 * place itself, so it runs next, ahead of the rest of the batch; two busy companies take turns.
 *
 * Everything lives in Redis under the installation's prefix, so producers and workers on every
 * machine share it: `<prefix>:fair` (the clock and each company's next place),
 * `<prefix>:fair:queued:<company>` (its jobs not started yet: the cap on queued jobs) and
 * `<prefix>:fair:active:<company>` (its jobs converting, each with a lease a worker renews: the
 * cap on jobs in flight, which survives a dead worker by the lease running out).
 */

/** BullMQ's highest priority number (2^21); a larger one is refused. */
export const MAX_PRIORITY = 2_097_152;

/** The line of jobs that name no company (a producer that gave none): they share one turn. */
export const NO_COMPANY = '-';

export interface FairShareLimits {
  /** Jobs one company may have waiting; 0 is no cap. */
  maxQueued: number;
  /** Jobs one company may have converting at once across every worker; 0 is no cap. */
  maxActive: number;
}

/**
 * Admits `ids` for a company: refuses them all when they would pass its cap on waiting jobs
 * (after dropping members that started or vanished without saying so), else gives them
 * consecutive places on its line and, under a cap, counts them as waiting. When nothing waits in the whole
 * queue the clock starts over: the places only order jobs that wait together, and starting over
 * keeps them far below BullMQ's highest priority.
 *
 * KEYS: fair hash, company's queued set, BullMQ's prioritized set, BullMQ's wait list.
 * ARGV: company, cap, now, job key prefix, max priority, ids...
 * Returns {first place, 0} or {-1, jobs waiting}.
 */
const ADMIT = `
local company, cap, now, jobPrefix, maxPriority = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], tonumber(ARGV[5])
local n = #ARGV - 5
if cap > 0 then
  local queued = redis.call('ZCARD', KEYS[2])
  if queued + n > cap then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
      local jobKey = jobPrefix .. id
      if redis.call('EXISTS', jobKey) == 0 or redis.call('HEXISTS', jobKey, 'processedOn') == 1 then
        redis.call('ZREM', KEYS[2], id)
      end
    end
    queued = redis.call('ZCARD', KEYS[2])
    if queued + n > cap then return {-1, queued} end
  end
end
if redis.call('ZCARD', KEYS[3]) == 0 and redis.call('LLEN', KEYS[4]) == 0 then
  redis.call('DEL', KEYS[1])
end
local clock = tonumber(redis.call('HGET', KEYS[1], 'clock') or '0')
local first = math.max(tonumber(redis.call('HGET', KEYS[1], 'next:' .. company) or '0'), clock, 1)
first = math.min(first, maxPriority)
redis.call('HSET', KEYS[1], 'next:' .. company, math.min(first + n, maxPriority))
if cap > 0 then
  for i = 6, #ARGV do redis.call('ZADD', KEYS[2], now, ARGV[i]) end
end
return {first, 0}
`;

/**
 * A worker took a job: it no longer waits, the clock moves to its place, and when the company
 * has a cap on jobs in flight, the job takes a lease if one is free (or still holds its own).
 *
 * KEYS: fair hash, company's queued set, company's active set.
 * ARGV: job id, place, cap on active, now, lease ms.
 * Returns 1 when the job may convert, 0 when the company is at its cap.
 */
const TAKE = `
local id, place, cap, now, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREM', KEYS[2], id)
if place > tonumber(redis.call('HGET', KEYS[1], 'clock') or '0') then
  redis.call('HSET', KEYS[1], 'clock', place)
end
if cap == 0 then return 1 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZSCORE', KEYS[3], id) or redis.call('ZCARD', KEYS[3]) < cap then
  redis.call('ZADD', KEYS[3], now + lease, id)
  redis.call('PEXPIRE', KEYS[3], lease)
  return 1
end
return 0
`;

/** Redis commands of the scripts above, registered on a connection once. */
interface FairCommands {
  docpipeFairAdmit(...args: (string | number)[]): Promise<[number, number]>;
  docpipeFairTake(...args: (string | number)[]): Promise<number>;
}

function commands(redis: Redis): Redis & FairCommands {
  if (!('docpipeFairAdmit' in redis)) {
    redis.defineCommand('docpipeFairAdmit', { numberOfKeys: 4, lua: ADMIT });
    redis.defineCommand('docpipeFairTake', { numberOfKeys: 3, lua: TAKE });
  }
  return redis as Redis & FairCommands;
}

/** A company's name as it goes into a Redis key: company ids are [A-Za-z0-9._-] already. */
function line(company: string | undefined): string {
  return company === undefined || company === '' ? NO_COMPANY : company;
}

export class FairShare {
  private readonly base: string;

  constructor(
    private readonly redis: () => Redis,
    private readonly names: QueueNames,
    readonly limits: FairShareLimits,
  ) {
    this.base = `${names.prefix}:fair`;
  }

  /**
   * Places for `ids`, in order, on the company's line; throws CompanyQueueFullError (nothing
   * admitted) when they would pass its cap on waiting jobs.
   */
  async admit(company: string | undefined, ids: string[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const who = line(company);
    const queue = `${this.names.prefix}:${this.names.documents}`;
    const [first, queued] = await commands(this.redis()).docpipeFairAdmit(
      this.base,
      `${this.base}:queued:${who}`,
      `${queue}:prioritized`,
      `${queue}:wait`,
      who,
      this.limits.maxQueued,
      Date.now(),
      `${queue}:`,
      MAX_PRIORITY,
      ...ids,
    );
    if (first < 0) throw new CompanyQueueFullError(who, queued, ids.length, this.limits.maxQueued);
    return ids.map((_, i) => Math.min(first + i, MAX_PRIORITY));
  }

  /** Jobs admitted but withdrawn before they started no longer count as waiting. */
  async withdrawn(company: string | undefined, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis().zrem(`${this.base}:queued:${line(company)}`, ...ids);
  }

  /**
   * A worker took the job at `place`: true when it may convert now, false when its company has
   * its cap of jobs converting (ask again later; the lease lasts `leaseMs` unless renewed).
   */
  async take(company: string | undefined, id: string, place: number, leaseMs: number) {
    const who = line(company);
    const granted = await commands(this.redis()).docpipeFairTake(
      this.base,
      `${this.base}:queued:${who}`,
      `${this.base}:active:${who}`,
      id,
      place,
      this.limits.maxActive,
      Date.now(),
      leaseMs,
    );
    return granted === 1;
  }

  /** The job's conversion ended: its lease goes to the company's next job. */
  async release(company: string | undefined, id: string): Promise<void> {
    if (this.limits.maxActive === 0) return;
    await this.redis().zrem(`${this.base}:active:${line(company)}`, id);
  }
}
