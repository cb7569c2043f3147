import { SMALL_BODY_LIMIT_BYTES } from '../../app/config/index.js';
import {
  KeyUseRecorder,
  VerifiedKeyCache,
  recordingKeyUse,
  type KeyVerifier,
} from '../../service/keys/index.js';
import { authenticateV2, authenticateV3 } from './common/auth.js';
import { createHttpApp, type HttpApp } from './common/create-app.js';
import { registerFrameworkAnswers } from './common/framework-errors.js';
import { registerOpenApi } from './common/openapi.js';
import { registerRateLimit } from './common/rate-limit.js';
import { registerStopping } from './common/stopping.js';
import { routeRecorder, undocumentedRoutes } from './common/route-coverage.js';
import type { HttpServerDeps } from './common/server-deps.js';
import type { HttpSurface, SurfaceAccess, SurfaceContext } from './common/surface.js';
import { observeHttpRequests } from './operations/index.js';
import { SURFACES } from './surfaces.js';

export type { HttpServerDeps } from './common/server-deps.js';

/**
 * The HTTP service: the spec's document endpoints (v2 convert; v3 file upload and pre-signed
 * URLs; the v3 library), the downloads signed URLs point at, health, metrics, the queue
 * dashboard and the OpenAPI document. Each surface (see surfaces.ts) is its own encapsulated
 * context with its own error shapes; the v2 and v3 ones sit behind their API's authentication and
 * rate limit. The server refuses to start with a route the OpenAPI document does not describe.
 */
export async function buildHttpServer(
  deps: HttpServerDeps,
  surfaces: readonly HttpSurface[] = SURFACES,
): Promise<HttpApp> {
  const { config } = deps;
  // Small bodies unless a route takes documents (v2 convert, upload: they set their own limit).
  const app = createHttpApp({
    bodyLimit: SMALL_BODY_LIMIT_BYTES,
    connections: config.http.connections,
    logger: deps.logger,
    trustedProxies: config.http.trustedProxies,
  });
  // First, so that its root hook runs before every route group's authentication.
  registerFrameworkAnswers(app);
  // Then the stop's refusal, before any authentication: a stopping server answers 503 to all.
  registerStopping(app);
  const recorder = routeRecorder();
  app.addHook('onRoute', recorder.onRoute);
  observeHttpRequests(app, deps.metrics);
  await registerOpenApi(app, deps.publicUrl);
  const signingSecret = deps.signingSecret ?? config.signingSecret;
  if (signingSecret === undefined)
    throw new Error('the HTTP service needs a signing secret (DOCPIPE_SIGNING_SECRET or Redis)');
  const context: SurfaceContext = { deps, signingSecret };
  // Working keys are reused for a few seconds (a revocation takes effect within them); each
  // key's use is written at most once a minute, beside the request (the key list's "last used").
  const uses = new KeyUseRecorder(deps.db, {
    onError: (err) => deps.logger?.warn({ err }, "a key's last use could not be written"),
  });
  const verifier = recordingKeyUse(new VerifiedKeyCache(deps.keys), uses);
  for (const group of byAccess(surfaces)) {
    if (group.access === 'public') {
      for (const surface of group.surfaces) await surface.register(app, context);
      continue;
    }
    const access = group.access;
    await app.register(async (api) => {
      api.addHook('onRequest', AUTHENTICATE[access](verifier));
      await registerRateLimit(api, {
        redis: deps.redis,
        redisUrl: deps.redisUrl,
        prefix: config.queue.prefix,
        perMinute: access === 'v2' ? config.http.rateLimitV2 : config.http.rateLimitV3,
        surface: access,
      });
      for (const surface of group.surfaces) await surface.register(api, context);
    });
  }
  await app.ready();
  const missing = undocumentedRoutes(recorder.routes, Object.keys(app.swagger().paths ?? {}));
  if (missing.length > 0) {
    await app.close();
    throw new Error(`routes without an OpenAPI description: ${missing.join(', ')}`);
  }
  return app;
}

const AUTHENTICATE = { v2: authenticateV2, v3: authenticateV3 } as const satisfies Record<
  Exclude<SurfaceAccess, 'public'>,
  (keys: KeyVerifier) => unknown
>;

/**
 * The surfaces in order, those of one API gathered where its first one stands: every surface of
 * an API shares its guard and its one count per key (v2 convert and the file endpoints, spec
 * section 8). Public surfaces stand each on its own.
 */
function byAccess(
  surfaces: readonly HttpSurface[],
): { access: SurfaceAccess; surfaces: HttpSurface[] }[] {
  const groups: { access: SurfaceAccess; surfaces: HttpSurface[] }[] = [];
  for (const surface of surfaces) {
    const group =
      surface.access === 'public' ? undefined : groups.find((g) => g.access === surface.access);
    if (group) group.surfaces.push(surface);
    else groups.push({ access: surface.access, surfaces: [surface] });
  }
  return groups;
}
