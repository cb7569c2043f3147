import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

/**
 * How long the lock lives without being renewed: a sweeper that dies holds it at most this long.
 * Renewed every third of it, so two renewals may fail (a Redis hiccup) before it is lost.
 */
export const SWEEP_LOCK_TTL_MS = 60_000;

/** Extends the lock only while it is still ours: a lock that expired and was taken stays taken. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Deletes the lock only while it is still ours, for the same reason. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The Redis key of an installation's sweep lock. */
export function sweepLockKey(prefix: string): string {
  return `${prefix}:retention:lock`;
}

export interface SweepLockOptions {
  /** @defaultValue SWEEP_LOCK_TTL_MS */
  ttlMs?: number;
  /** Who holds it, as another sweeper is told: @defaultValue `<hostname>:<pid>` */
  holder?: string;
}

/** Someone else holds the lock: who, as they wrote it. */
export interface LockBusy {
  heldBy: string;
}

/**
 * One sweeper at a time across every machine on one Redis: SET NX PX with a random token,
 * renewed while the sweep runs, released with compare-and-delete. A sweeper that loses it (its
 * renewals failed past the TTL, or another took it after it expired) sees `held` turn false and
 * stops removing.
 */
export class SweepLock {
  private validUntil: number;
  private lost = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly token: string,
    private readonly ttlMs: number,
    taken: number,
  ) {
    this.validUntil = taken + ttlMs;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(ttlMs / 3)));
    this.timer.unref();
  }

  /** Takes the lock, or says who holds it. Redis errors reject. */
  static async acquire(
    redis: Redis,
    key: string,
    options: SweepLockOptions = {},
  ): Promise<SweepLock | LockBusy> {
    const ttlMs = options.ttlMs ?? SWEEP_LOCK_TTL_MS;
    const holder = options.holder ?? `${hostname()}:${process.pid}`;
    const token = `${holder}:${randomBytes(8).toString('hex')}`;
    const taken = Date.now();
    if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK')
      return new SweepLock(redis, key, token, ttlMs, taken);
    const current = await redis.get(key);
    // The holder's part of its token, without the random part that guards the release.
    return {
      heldBy: current ? current.replace(/:[0-9a-f]{16}$/, '') : 'a sweeper that just ended',
    };
  }

  /** Whether the lock is still ours for sure: not lost, and renewed within its TTL. */
  get held(): boolean {
    return !this.lost && Date.now() < this.validUntil;
  }

  /** Stops renewing and deletes the lock if it is still ours; never rejects. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => undefined);
    this.lost = true;
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const asked = Date.now();
    try {
      const renewed = await this.redis.eval(RENEW, 1, this.key, this.token, this.ttlMs);
      if (renewed === 1) this.validUntil = asked + this.ttlMs;
      else this.lost = true;
    } catch {
      // Redis did not answer: the lock may still be ours until validUntil; the next renewal tries.
    }
  }
}

export function isLockBusy(value: SweepLock | LockBusy): value is LockBusy {
  return 'heldBy' in value;
}
