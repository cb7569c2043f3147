import { PngThread } from '../../../formats/raster/index.js';
import { EidBrokers } from '../../../service/eid/index.js';
import { SealQueue } from '../../../service/sealing/index.js';
import type { SignOutcome } from '../../../service/signing/index.js';
import { RedisAdminAttempts } from '../common/admin-attempts.js';
import { cprCipherOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { signingApiRoutes } from './signing-api-routes.js';
import { signingEidRoutes } from './signing-eid-routes.js';
import { signingMisses } from './signing-misses.js';
import { signingRoutes } from './signing-routes.js';
import { withTestBanner } from './signing-page.js';

export { signingRoutes, PAGE_IMAGE_DPI, type SigningRoutesOptions } from './signing-routes.js';
export { PageImageCache } from './page-image-cache.js';
export { signingApiRoutes, type SigningApiOptions } from './signing-api-routes.js';
export { csrfTokenFor, csrfTokenMatches } from './csrf-token.js';
export { signingMisses, type SigningMisses } from './signing-misses.js';
export {
  EID_CALLBACK_PATH,
  signingEidRoutes,
  type SigningEidOptions,
} from './signing-eid-routes.js';
export {
  escapeHtml,
  messagePage,
  receiptPage,
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
  async register(app, { deps, signingSecret }) {
    // Its own context: the test banner's hook must reach the signing pages only.
    await app.register(async (scope) => {
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
      // The last signature adds the case's seal job; a job that could not be added (Redis down)
      // is added by the seal worker's sweep, so the signer's answer does not wait on it.
      const seals = new SealQueue(deps.redis, deps.config.queue.prefix);
      scope.addHook('onClose', () => seals.close());
      const onCompleted = async (outcome: SignOutcome) => {
        await seals
          .add({ company: outcome.company, caseId: outcome.caseId })
          .catch((err: unknown) =>
            deps.logger?.warn({ err, case: outcome.caseId }, 'the seal job waits for the sweep'),
          );
      };
      const signsPerMinute = deps.config.http.signingAttemptsPerMinute;
      const attempts =
        signsPerMinute === 0
          ? undefined
          : new RedisAdminAttempts({
              redis: deps.redis,
              prefix: deps.config.queue.prefix,
              perMinute: signsPerMinute,
              counter: 'signing-attempts',
            });
      if (deps.config.environment === 'test')
        scope.addHook('onSend', async (_request, reply, payload) => {
          const type = String(reply.getHeader('content-type') ?? '');
          return typeof payload === 'string' && type.startsWith('text/html')
            ? withTestBanner(payload)
            : payload;
        });
      const images = new PngThread();
      scope.addHook('onClose', () => images.close());
      const timeZone = deps.config.timeZone;
      await scope.register(signingRoutes, { db: deps.db, storage: deps.storage, misses, timeZone });
      await scope.register(signingApiRoutes, {
        db: deps.db,
        secret: signingSecret,
        misses,
        timeZone,
        ...(attempts ? { attempts } : {}),
        images,
        onCompleted,
      });
      if (deps.config.eid.brokers.length > 0) {
        const cprCipher = await cprCipherOf(deps);
        await scope.register(signingEidRoutes, {
          db: deps.db,
          brokers: new EidBrokers(deps.config.eid, { publicUrl: deps.publicUrl }),
          publicUrl: deps.publicUrl,
          misses,
          onCompleted,
          ...(cprCipher ? { cprCipher } : {}),
        });
      }
    });
  },
};
