import { RedisAdminAttempts, type AdminAttempts } from '../common/admin-attempts.js';
import { requireAdmin } from '../common/admin-credential.js';
import type { HttpServerDeps } from '../common/server-deps.js';

/**
 * The operator pages' guard: the admin credential (HTTP Basic, user `admin`,
 * DOCPIPE_ADMIN_PASSWORD), its wrong tries counted per client address exactly as the queue
 * dashboard and `/metrics` count them: the same Redis key under the installation's queue prefix,
 * so that one allowance covers every route the credential is tried on. Undefined when there is no
 * password (the pages are then off).
 */
export function operatorGuard(deps: HttpServerDeps): ReturnType<typeof requireAdmin> | undefined {
  const { adminPassword, adminAttemptsPerMinute } = deps.config.http;
  if (adminPassword === undefined) return undefined;
  const attempts: AdminAttempts | undefined =
    adminAttemptsPerMinute === 0
      ? undefined
      : new RedisAdminAttempts({
          redis: deps.redis,
          prefix: deps.config.queue.prefix,
          perMinute: adminAttemptsPerMinute,
          onRedisError: (err) =>
            deps.logger?.warn(
              { err },
              'admin credential tries are counted in this process until Redis answers again',
            ),
        });
  return requireAdmin(adminPassword, attempts);
}
