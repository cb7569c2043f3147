import { RedisAdminAttempts } from '../common/admin-attempts.js';
import { cprCipherOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { registerPages } from '../pages/index.js';
import { flowRoutes } from './flow-routes.js';

export { flowRoutes, type FlowRoutesOptions } from './flow-routes.js';

/**
 * Posts a minute on one person's link: a person saves a few times a minute at most, so this
 * only stops a script filling the answers table.
 */
export const FLOW_POSTS_PER_MINUTE = 30;

/**
 * The web-flow answer page (`/flow/{token}`, issue 36): public, the link's token the only
 * credential, registered as pages (CSRF, language, the pages' headers), with tokens that open
 * nothing counted per address as the signing pages count theirs.
 */
export const flowSurface: HttpSurface = {
  name: 'web-flow pages',
  access: 'public',
  async register(app, context) {
    const { deps } = context;
    const perMinute = deps.config.http.signingMissesPerMinute;
    const misses =
      perMinute === 0
        ? undefined
        : new RedisAdminAttempts({
            redis: deps.redis,
            prefix: deps.config.queue.prefix,
            perMinute,
            counter: 'flow-misses',
            onRedisError: (err) =>
              deps.logger?.warn(
                { err },
                'flow link misses are counted in this process until Redis answers again',
              ),
          });
    const posts = new RedisAdminAttempts({
      redis: deps.redis,
      prefix: deps.config.queue.prefix,
      perMinute: FLOW_POSTS_PER_MINUTE,
      counter: 'flow-posts',
    });
    const cprCipher = await cprCipherOf(deps);
    await registerPages(app, context, flowRoutes({ db: deps.db, cprCipher, misses, posts }));
  },
};
