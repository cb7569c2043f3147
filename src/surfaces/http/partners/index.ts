import { RedisAdminAttempts } from '../common/admin-attempts.js';
import type { HttpSurface } from '../common/surface.js';
import { publicPartnerRoutes } from './public-partner-routes.js';

export { publicPartnerRoutes, type PublicPartnerOptions } from './public-partner-routes.js';

/** Spec 4.5's public partner lookup: no key, counted per client address. */
export const partnersSurface: HttpSurface = {
  name: 'partners',
  access: 'public',
  async register(scope, { deps }) {
    const perMinute = deps.config.http.partnerLookupsPerMinute;
    const lookups =
      perMinute === 0
        ? undefined
        : new RedisAdminAttempts({
            redis: deps.redis,
            prefix: deps.config.queue.prefix,
            perMinute,
            counter: 'partner-lookups',
            onRedisError: (err) =>
              (deps.logger ?? scope.log).warn(
                { err },
                'partner lookups are counted in this process until Redis answers',
              ),
          });
    await scope.register(publicPartnerRoutes, { db: deps.db, publicUrl: deps.publicUrl, lookups });
  },
};
