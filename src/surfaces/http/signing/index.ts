import { RedisAdminAttempts } from '../common/admin-attempts.js';
import type { HttpSurface } from '../common/surface.js';
import { signingApiRoutes } from './signing-api-routes.js';
import { signingMisses } from './signing-misses.js';
import { signingRoutes } from './signing-routes.js';

export { signingRoutes, PAGE_IMAGE_DPI, type SigningRoutesOptions } from './signing-routes.js';
export { signingApiRoutes, type SigningApiOptions } from './signing-api-routes.js';
export { csrfTokenFor, csrfTokenMatches } from './csrf-token.js';
export { signingMisses, type SigningMisses } from './signing-misses.js';
export {
  escapeHtml,
  messagePage,
  signingPage,
  MAX_SHOWN_PAGES,
  PAGE_HEADERS,
} from './signing-page.js';

/**
 * The recipients' signing pages (`/sign/{token}`) and their JSON API: public, the link's token
 * being the only credential, with tokens that open nothing counted per address.
 */
export const signingSurface: HttpSurface = {
  name: 'signing pages',
  access: 'public',
  async register(scope, { deps, signingSecret }) {
    const perMinute = deps.config.http.signingMissesPerMinute;
    const misses = signingMisses(
      perMinute === 0
        ? undefined
        : new RedisAdminAttempts({
            redis: deps.redis,
            prefix: deps.config.queue.prefix,
            perMinute,
            counter: 'signing-misses',
            onRedisError: (err) =>
              deps.logger?.warn(
                { err },
                'signing link misses are counted in this process until Redis answers again',
              ),
          }),
    );
    await scope.register(signingRoutes, { db: deps.db, storage: deps.storage });
    await scope.register(signingApiRoutes, { db: deps.db, secret: signingSecret, misses });
  },
};
