export { EmbeddedRedis, type EmbeddedRedisOptions } from './embedded-redis.js';
export {
  createRedis,
  connectProducer,
  checkEvictionPolicy,
  type ConnectionRole,
} from './redis-connection.js';
export {
  QueueUnavailableError,
  isQueueUnavailableError,
  type UnavailableReason,
} from './queue-unavailable.js';
export {
  NoRedisError,
  redisUrlFile,
  requireRedisUrl,
  resolveRedisUrl,
  type RedisWhere,
} from './redis-url.js';
