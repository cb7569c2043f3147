import { Redis, type RedisOptions } from 'ioredis';
import { QueueUnavailableError } from './queue-unavailable.js';

/**
 * Workers block on Redis and must ride out restarts: BullMQ requires maxRetriesPerRequest null.
 * Producers answer API servers and must fail fast when Redis is down.
 */
export type ConnectionRole = 'worker' | 'producer';

export function createRedis(url: string, role: ConnectionRole): Redis {
  const options: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          // Connected explicitly (connect()), so that a producer knows at once whether Redis is there.
          lazyConnect: true,
          connectTimeout: 5000,
          retryStrategy: (n) => Math.min(1000, 50 * n),
        };
  const redis = new Redis(url, options);
  // Errors surface through the commands that fail; an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  return redis;
}

/** A producer's connection to `url`, connected: QueueUnavailableError when Redis is not there. */
export async function connectProducer(url: string): Promise<Redis> {
  const connection = createRedis(url, 'producer');
  try {
    await connection.connect();
  } catch (err) {
    connection.disconnect();
    throw QueueUnavailableError.unreachable(url, undefined, err);
  }
  return connection;
}

/**
 * BullMQ loses jobs under any eviction policy but noeviction: refuse to run on such a Redis, with
 * a message that says how to fix it.
 */
export async function checkEvictionPolicy(redis: Redis): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
  const policy = reply[1];
  if (policy !== 'noeviction') {
    throw new Error(
      `Redis maxmemory-policy is "${policy}"; docpipe needs "noeviction" (BullMQ loses jobs otherwise). ` +
        'Set it with: redis-cli CONFIG SET maxmemory-policy noeviction (and in redis.conf).',
    );
  }
}
