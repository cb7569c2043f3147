import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';

/**
 * The admin credential's wrong tries, counted per client address, so that its password cannot be
 * guessed at the speed of the network: past the allowance an address waits out the rest of its
 * minute, whatever it sends (a right password included, or a guesser would learn the password
 * from the one answer that is not 429). Other addresses are not affected.
 */
export interface AdminAttempts {
  /** Wrong tries an address may make in a minute. */
  readonly perMinute: number;
  /** Seconds `address` must wait before trying again, or undefined when it may try now. */
  waitFor(address: string): Promise<number | undefined>;
  /**
   * Counts a wrong try of `address`. Answers the seconds to wait when this try is past the
   * allowance (it is then refused as too many, not as wrong), else undefined.
   */
  failed(address: string): Promise<number | undefined>;
}

export interface RedisAdminAttemptsOptions {
  /** The Redis every docpipe server shares, connected: one count per address across all of them. */
  redis: Redis;
  /** The queue prefix: installations on one Redis count apart. */
  prefix: string;
  /** config.http.adminAttemptsPerMinute, at least 1. */
  perMinute: number;
  /** Told once each time Redis stops answering and the count falls back to this process. */
  onRedisError?: (err: unknown) => void;
  /**
   * What is counted, the Redis key's middle part: the admin credential's wrong tries, or the
   * signing pages' tokens that open nothing. @defaultValue 'admin-attempts'
   */
  counter?: string;
  /**
   * The window the allowance is counted in (the dashboard's log-ins per account count 15
   * minutes, sign-ups an hour); `perMinute` is then the allowance per window.
   * @defaultValue 60_000
   */
  windowMs?: number;
}

const WINDOW_MS = 60_000;

/** One more wrong try, in one step: concurrent tries each get their own number. */
const FAIL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

const PEEK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
return {n, redis.call('PTTL', KEYS[1])}
`;

/**
 * AdminAttempts in the shared Redis, under `<prefix>:admin-attempts:<address>`: a count that
 * starts with an address's first wrong try and expires a minute later. The first `perMinute`
 * wrong tries are answered as wrong (401); every try after them within the minute is 429.
 *
 * When Redis does not answer, the count goes on in this process (LocalAdminAttempts) rather than
 * refusing: the operator scrapes `/metrics` and opens the dashboard precisely during an outage,
 * and a guesser still meets the same allowance per server. Never a free try either way.
 */
export class RedisAdminAttempts implements AdminAttempts {
  readonly perMinute: number;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly local: LocalAdminAttempts;
  private readonly onRedisError: (err: unknown) => void;
  private redisFailing = false;
  private readonly counter: string;
  private readonly windowMs: number;

  constructor(options: RedisAdminAttemptsOptions) {
    if (!Number.isSafeInteger(options.perMinute) || options.perMinute < 1)
      throw new Error(
        `admin attempts must be a whole number of wrong tries a minute, at least 1 (got ${options.perMinute})`,
      );
    this.perMinute = options.perMinute;
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.local = new LocalAdminAttempts(options.perMinute, Date.now, this.windowMs);
    this.onRedisError = options.onRedisError ?? (() => undefined);
    this.counter = options.counter ?? 'admin-attempts';
  }

  async waitFor(address: string): Promise<number | undefined> {
    const counted = await this.run(PEEK, address);
    if (!counted) return this.local.waitFor(address);
    const [count, ttlMs] = counted;
    return count >= this.perMinute ? seconds(ttlMs) : undefined;
  }

  async failed(address: string): Promise<number | undefined> {
    const counted = await this.run(FAIL, address, this.windowMs);
    if (!counted) return this.local.failed(address);
    const [count, ttlMs] = counted;
    return count > this.perMinute ? seconds(ttlMs) : undefined;
  }

  /** The script's `[count, ttl]`, or undefined when Redis does not answer. */
  private async run(
    script: string,
    address: string,
    ...args: number[]
  ): Promise<[number, number] | undefined> {
    const key = `${this.prefix}:${this.counter}:${addressBucket(address)}`;
    try {
      const [count, ttlMs] = (await this.redis.eval(script, 1, key, ...args)) as [number, number];
      this.redisFailing = false;
      return [count, ttlMs];
    } catch (err) {
      if (!this.redisFailing) this.onRedisError(err);
      this.redisFailing = true;
      return undefined;
    }
  }
}

/**
 * AdminAttempts in this process's memory: the same allowance and minute as in Redis, per server.
 * The fallback while Redis does not answer; it forgets addresses whose minute is over.
 */
export class LocalAdminAttempts implements AdminAttempts {
  private readonly counts = new Map<string, { count: number; until: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs: number = WINDOW_MS,
  ) {}

  waitFor(address: string): Promise<number | undefined> {
    const entry = this.current(addressBucket(address));
    return Promise.resolve(
      entry && entry.count >= this.perMinute ? seconds(entry.until - this.now()) : undefined,
    );
  }

  failed(address: string): Promise<number | undefined> {
    const bucket = addressBucket(address);
    const entry = this.current(bucket) ?? { count: 0, until: this.now() + this.windowMs };
    entry.count += 1;
    this.counts.set(bucket, entry);
    return Promise.resolve(
      entry.count > this.perMinute ? seconds(entry.until - this.now()) : undefined,
    );
  }

  private current(bucket: string): { count: number; until: number } | undefined {
    const now = this.now();
    // Expired entries go on every lookup, so the map holds only addresses tried this minute.
    for (const [key, entry] of this.counts) if (entry.until <= now) this.counts.delete(key);
    return this.counts.get(bucket);
  }
}

/** Whole seconds of a TTL, at least 1 (a key that has just expired still says "try again"). */
function seconds(ttlMs: number): number {
  return ttlMs > 0 ? Math.ceil(ttlMs / 1000) : 1;
}

/**
 * The unit an address is counted as. An IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`)
 * on its own; an IPv6 address by its /64, since one host commonly holds a whole /64 and could
 * otherwise try from a fresh address each time.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (!isIPv6(bare)) return address;
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; the /64 never reaches it.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = Array<string>(8 - width(left) - width(right)).fill('0');
  return [...left, ...zeros, ...right].map((g) =>
    g.includes('.') ? g : g.replace(/^0+(?=.)/, ''),
  );
}
