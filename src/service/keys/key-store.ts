import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DocpipeError } from '../../base/errors/index.js';
import { QueueUnavailableError, createRedis } from '../../platform/redis/index.js';
import { safeUrl } from '../../base/util/index.js';
import { newKeyProblems } from './key-fields.js';
import type {
  ApiKeyRecord,
  CheckedKey,
  CreatedKey,
  KeyVerification,
  ExpiringKeyVerifier,
  RevokeOutcome,
} from './key-record.js';
import { hashToken, isKeyId, newToken, tokenId } from './key-token.js';

export interface KeyStoreOptions {
  /** A connected ioredis connection; the store never closes it unless it opened it itself. */
  redis: Redis;
  /** The queue prefix (`DOCPIPE_QUEUE_PREFIX`): installations on one Redis keep their keys apart. */
  prefix: string;
  /** For messages when Redis does not answer. @defaultValue the connection's host and port */
  redisUrl?: string;
  /** The clock, for expiry. @defaultValue Date.now */
  now?: () => number;
}

/**
 * Creates the record only if its id is new, and lists it, in one step: two servers creating keys
 * at once never overwrite each other, and no half-written record is ever seen.
 */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/** Revokes once: the first revocation's time stays, and a missing id creates nothing. */
const REVOKE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
if redis.call('HSETNX', KEYS[1], 'revokedAt', ARGV[1]) == 1 then return {'revoked', ARGV[1]} end
return {'already', redis.call('HGET', KEYS[1], 'revokedAt')}`;

/** Compared with when no record exists, so that an unknown id costs the same comparison. */
const NO_HASH = Buffer.alloc(32);

/**
 * API keys in Redis, the database every docpipe machine already shares, under
 * `<prefix>:apikeys:`: one hash per key (`key:<id>`: hash, company, name, createdAt, expiresAt,
 * revokedAt; times in ms) and a sorted set of ids by creation (`ids`) for listing. Only the
 * SHA-256 of a key is stored (see hashToken); the key itself is returned once by `create`.
 */
export class KeyStore implements ExpiringKeyVerifier {
  private readonly redis: Redis;
  private readonly base: string;
  private readonly redisUrl: string;
  private readonly now: () => number;
  private readonly owned: boolean;

  constructor(options: KeyStoreOptions, owned = false) {
    this.redis = options.redis;
    this.base = `${options.prefix}:apikeys`;
    const { host, port } = options.redis.options;
    this.redisUrl = options.redisUrl ?? `redis://${host ?? 'localhost'}:${port ?? 6379}`;
    this.now = options.now ?? Date.now;
    this.owned = owned;
  }

  /**
   * A store on a connection of its own, for the CLI: fails at once with QueueUnavailableError
   * when Redis does not answer. `close()` ends the connection.
   */
  static async connect(
    redisUrl: string,
    options: { prefix: string; now?: () => number },
  ): Promise<KeyStore> {
    const redis = createRedis(redisUrl, 'producer');
    try {
      await redis.connect();
      await redis.ping();
    } catch (err) {
      redis.disconnect();
      throw unreachable(redisUrl, err);
    }
    return new KeyStore({ redis, redisUrl, ...options }, true);
  }

  /** Ends the connection if `connect` opened it; a shared connection stays its owner's. */
  close(): Promise<void> {
    if (this.owned) this.redis.disconnect();
    return Promise.resolve();
  }

  /**
   * A new key for `company`. Throws DocpipeError `validation-failed` naming every problem with
   * the company, name or lifetime.
   */
  async create(input: {
    company: string;
    name: string;
    expiresInMs?: number;
  }): Promise<CreatedKey> {
    const problems = newKeyProblems(input);
    if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
    const createdAt = this.now();
    const expiresAt = input.expiresInMs === undefined ? undefined : createdAt + input.expiresInMs;
    // A repeated 64-bit id is all but impossible; trying again costs nothing if it happens.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { id, token } = newToken();
      const fields = [
        'hash',
        hashToken(token).toString('hex'),
        'company',
        input.company,
        'name',
        input.name,
        'createdAt',
        String(createdAt),
        ...(expiresAt === undefined ? [] : ['expiresAt', String(expiresAt)]),
      ];
      const made = await this.call(() =>
        this.redis.eval(CREATE, 2, this.recordKey(id), this.idsKey(), createdAt, id, ...fields),
      );
      if (made === 1)
        return {
          id,
          company: input.company,
          name: input.name,
          createdAt: new Date(createdAt),
          ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
          key: token,
        };
    }
    throw new Error('three new API key ids in a row were taken: the random source is broken');
  }

  /** Every key, oldest first, revoked and expired ones included; never a secret or a hash. */
  async list(): Promise<ApiKeyRecord[]> {
    const ids = await this.call(() => this.redis.zrange(this.idsKey(), 0, -1));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.recordKey(id));
    const replies = (await this.call(() => pipeline.exec())) ?? [];
    const records: ApiKeyRecord[] = [];
    ids.forEach((id, i) => {
      const [err, fields] = replies[i] ?? [];
      if (err) throw err;
      const record = recordOf(id, fields as Record<string, string>);
      if (record) records.push(record);
    });
    return records;
  }

  /** Revokes a key for good. Idempotent: a second revocation keeps the first one's time. */
  async revoke(id: string): Promise<RevokeOutcome> {
    if (!isKeyId(id)) return { found: false };
    const reply = (await this.call(() =>
      this.redis.eval(REVOKE, 1, this.recordKey(id), String(this.now())),
    )) as [string, string?];
    if (reply[0] === 'missing') return { found: false };
    return {
      found: true,
      alreadyRevoked: reply[0] === 'already',
      revokedAt: new Date(Number(reply[1])),
    };
  }

  /**
   * Whether `token` is a working key, and whose. Revocation and expiry are told only to a caller
   * who holds the right secret: anyone else learns `invalid`, whatever the id.
   */
  async verify(token: string): Promise<KeyVerification> {
    return (await this.check(token)).verification;
  }

  /** {@link verify}, with a working key's expiry, for a cache not to outlive it. */
  async check(token: string): Promise<CheckedKey> {
    const id = tokenId(token);
    const presented = hashToken(token);
    const fields = id
      ? await this.call(() => this.redis.hgetall(this.recordKey(id)))
      : ({} as Record<string, string>);
    const stored = /^[0-9a-f]{64}$/.test(fields.hash ?? '')
      ? Buffer.from(fields.hash!, 'hex')
      : NO_HASH;
    // Constant time, so that response times say nothing about how much of a guess was right.
    const matches = timingSafeEqual(stored, presented) && stored !== NO_HASH;
    const record = matches && id ? recordOf(id, fields) : undefined;
    if (!record) return { verification: { ok: false, reason: 'invalid' } };
    if (record.revokedAt) return { verification: { ok: false, reason: 'revoked' } };
    if (record.expiresAt && record.expiresAt.getTime() <= this.now())
      return { verification: { ok: false, reason: 'expired' } };
    const identity = { id: record.id, company: record.company, name: record.name };
    return { verification: { ok: true, identity }, expiresAt: record.expiresAt };
  }

  private recordKey(id: string): string {
    return `${this.base}:key:${id}`;
  }

  private idsKey(): string {
    return `${this.base}:ids`;
  }

  /**
   * Redis not answering is the queue's own outage (QueueUnavailableError: 503 for a server, exit
   * 3 for the CLI); a reply error from Redis itself is a bug and stays what it is.
   */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (err) {
      if ((err as Error).name === 'ReplyError') throw err;
      throw unreachable(this.redisUrl, err);
    }
  }
}

/** The queue's outage class, with a message about keys rather than queued jobs. */
function unreachable(redisUrl: string, cause: unknown): QueueUnavailableError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return new QueueUnavailableError(
    'redis-unreachable',
    redisUrl,
    `cannot reach Redis at ${safeUrl(redisUrl)}${code ? ` (${code})` : ''}, where the API keys ` +
      'are kept. Start it ("docpipe start" runs its own; with REDIS_URL, that Redis), then try again.',
    { cause },
  );
}

/** A stored hash as a record; undefined when it is gone or not a whole record. */
function recordOf(id: string, fields: Record<string, string>): ApiKeyRecord | undefined {
  const { company, name } = fields;
  const createdAt = time(fields.createdAt);
  if (company === undefined || name === undefined || createdAt === undefined) return undefined;
  const expiresAt = time(fields.expiresAt);
  const revokedAt = time(fields.revokedAt);
  return {
    id,
    company,
    name,
    createdAt,
    ...(expiresAt ? { expiresAt } : {}),
    ...(revokedAt ? { revokedAt } : {}),
  };
}

function time(ms: string | undefined): Date | undefined {
  if (ms === undefined || !/^\d+$/.test(ms)) return undefined;
  return new Date(Number(ms));
}
