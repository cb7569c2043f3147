import { RedisAdminAttempts, type AdminAttempts } from '../common/admin-attempts.js';
import type { HttpServerDeps } from '../common/server-deps.js';

/**
 * Wrong second factors a login may give in a minute (the code page, and turning two-factor
 * log-in off), counted per login in the shared Redis whatever the session or address: a
 * 6-digit code taken for 3 steps is guessed at 3 in a million a try, so 5 a minute (7,200 a
 * day) hold a guesser who already has the password to about 2% a day; a person who mistypes
 * twice is not held up.
 */
export const SECOND_FACTOR_TRIES_PER_MINUTE = 5;

const made = new WeakMap<HttpServerDeps, AdminAttempts>();

/** One counter per server (the code page and the security page share it). */
export function secondFactorAttempts(deps: HttpServerDeps): AdminAttempts {
  let attempts = made.get(deps);
  if (!attempts) {
    attempts = new RedisAdminAttempts({
      redis: deps.redis,
      prefix: deps.config.queue.prefix,
      perMinute: SECOND_FACTOR_TRIES_PER_MINUTE,
      counter: 'second-factor',
      onRedisError: (err) =>
        deps.logger?.warn(
          { err },
          'wrong second factors are counted in this process until Redis answers again',
        ),
    });
    made.set(deps, attempts);
  }
  return attempts;
}
