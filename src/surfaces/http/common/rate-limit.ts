import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { QueueUnavailableError } from '../../../platform/redis/index.js';
import { apiKeyOf } from './api-key.js';
import { v2Error, v2Errors } from './replies.js';

/**
 * The spec's surfaces count apart: v2 and the file endpoints share the v2 count (section 8: 100
 * a minute on the documented surface), v3 has its own (off until configured).
 */
export type RateLimitSurface = 'v2' | 'v3';

export interface RateLimitOptions {
  /** The Redis every docpipe server shares, connected: one count per key across all of them. */
  redis: Redis;
  /** The queue prefix: installations on one Redis count apart. */
  prefix: string;
  /** Requests a minute per key; 0 registers nothing (no limit). */
  perMinute: number;
  surface: RateLimitSurface;
  /** For the message when Redis does not answer. */
  redisUrl?: string;
}

const WINDOW_MS = 60_000;

/**
 * The v3 slug for 429. The spec's 7.2 has none yet (v3 is not limited there, section 8 says a
 * limit is announced): this one is docpipe's, outside the failure registry, which holds exactly
 * the spec's slugs.
 */
export const V3_RATE_LIMITED = 'rate-limited';

/**
 * Limits requests per API key in `scope` (a route group's encapsulated context), counted in Redis
 * under `<prefix>:ratelimit:<surface>:<key id>` by @fastify/rate-limit's Redis store, so that
 * every server on the same Redis shares one count.
 *
 * Call it after the group's authentication hook is added: it counts in `preParsing`, after every
 * `onRequest` hook (the key must be known, and a refused caller is not counted against anyone)
 * and before the body is read (a caller over the limit costs no body parsing). Over the limit
 * it answers 429 itself with `Retry-After` (seconds) and its surface's body; every answer
 * carries `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset`.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  options: RateLimitOptions,
): Promise<void> {
  if (!Number.isSafeInteger(options.perMinute) || options.perMinute < 0)
    throw new Error(
      `rate limit must be a whole number of requests a minute (got ${options.perMinute})`,
    );
  if (options.perMinute === 0) return;
  // The plugin decorates the context it is registered in; a limiter inherited from a parent
  // would silently count with the parent's settings instead of these.
  if (scope.hasDecorator('createRateLimit'))
    throw new Error('rate limiting is already registered in this context or a parent one');
  await scope.register(fastifyRateLimit, {
    // No hooks of the plugin's own: this hook answers 429 itself, in the surface's shape, where
    // the plugin's would throw into whatever error handler the route group has.
    global: false,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    redis: options.redis,
    nameSpace: `${options.prefix}:ratelimit:${options.surface}:`,
    keyGenerator: (request: FastifyRequest) => apiKeyOf(request).id,
  });
  const limiter = scope.createRateLimit();
  const url = options.redisUrl ?? 'the shared Redis';
  scope.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    const state = await limiter(request).catch((err: unknown) => {
      throw QueueUnavailableError.unreachable(url, undefined, err);
    });
    // `isAllowed` is only true for an allow list, which is not used here.
    if (state.isAllowed) return undefined;
    void reply.header('x-ratelimit-limit', state.max);
    void reply.header('x-ratelimit-remaining', state.remaining);
    void reply.header('x-ratelimit-reset', state.ttlInSeconds);
    if (!state.isExceeded) return undefined;
    request.log.info({ keyId: state.key, surface: options.surface }, 'rate limit exceeded');
    return reply
      .code(429)
      .header('retry-after', state.ttlInSeconds)
      .send(tooManyRequests(options.surface, options.perMinute, state.ttlInSeconds));
  });
}

function tooManyRequests(surface: RateLimitSurface, perMinute: number, retryAfter: number) {
  return surface === 'v2'
    ? v2Errors(
        v2Error(
          429,
          `more than ${perMinute} requests a minute with this API key; try again in ${retryAfter} s (Retry-After)`,
        ),
      )
    : // Nothing in the request itself is wrong (7.2 gives details for that), so none.
      { error: V3_RATE_LIMITED, details: [] };
}
