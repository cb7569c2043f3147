import type { HttpSurface } from '../common/surface.js';
import { fileRoutes } from './file-routes.js';
import { RedisSignedUrlCache } from './signed-url-cache.js';

export { fileRoutes, type FileRoutesOptions } from './file-routes.js';
export {
  RedisSignedUrlCache,
  signedUrlCacheKey,
  type SignedUrlCache,
  type UploadRef,
} from './signed-url-cache.js';

/**
 * The file endpoints (spec 4.3): upload and pre-signed URLs. Their paths are v3's, their keys
 * and rate limit v2's (section 8 counts them with v2).
 */
export const filesSurface: HttpSurface = {
  name: 'v3 files',
  access: 'v2',
  async register(scope, { deps, signingSecret }) {
    const { config } = deps;
    await scope.register(fileRoutes, {
      storage: deps.storage,
      preparer: deps.preparer,
      signedUrls: new RedisSignedUrlCache(deps.redis, config.queue.prefix),
      publicUrl: deps.publicUrl,
      signingSecret,
      signedUrlTtlSeconds: config.http.signedUrlTtlSeconds,
      maxUploadBytes: config.limits.maxInputBytes,
      bodyLimitBytes: config.http.bodyLimitBytes,
    });
  },
};
