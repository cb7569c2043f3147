import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { DocpipeConfig } from '../../app/config/index.js';
import { VerifiedKeyCache, type KeyStore } from '../../service/keys/index.js';
import type { DocumentLibrary } from '../../document/library/index.js';
import type { DocpipeMetrics } from '../../base/metrics/index.js';
import type { Preparer } from '../../render/prepare/index.js';
import type { DocpipeClient } from '../../jobs/queue/index.js';
import type { Storage } from '../../render/storage/index.js';
import { authenticateV2, authenticateV3 } from './common/auth.js';
import { createHttpApp, type HttpApp } from './common/create-app.js';
import { documentUrlResolver, renderUrlSigner } from './convert/document-urls.js';
import { registerOpenApi } from './common/openapi.js';
import { registerRateLimit } from './common/rate-limit.js';
import type { ReadinessCheck } from './operations/readiness-checks.js';
import { convertRoutes } from './convert/convert-routes.js';
import { dashboardRoutes } from './operations/dashboard-routes.js';
import { documentsRoutes } from './documents/documents-routes.js';
import { downloadRoutes } from './downloads/download-routes.js';
import { fileRoutes } from './files/file-routes.js';
import { healthRoutes } from './operations/health-routes.js';
import { metricsRoutes, observeHttpRequests } from './operations/metrics-routes.js';
import { routeRecorder, undocumentedRoutes } from './common/route-coverage.js';
import { RedisSignedUrlCache } from './files/signed-url-cache.js';

/** What the HTTP server works with: built by `src/app/wiring` for `docpipe serve` and `docpipe start`. */
export interface HttpServerDeps {
  config: DocpipeConfig;
  /** The base of every URL the server issues (config.http's, or the address it listens on). */
  publicUrl: string;
  /** The Redis every docpipe process shares, connected: keys, rate limits, signed URLs. */
  redis: Redis;
  redisUrl: string;
  keys: KeyStore;
  /** The queue's producer: conversions run on docpipe's workers, here or on other machines. */
  client: DocpipeClient;
  storage: Storage;
  library: DocumentLibrary;
  /** Sniff for uploads, fields for the library: the prepare threads. */
  preparer: Pick<Preparer, 'sniff' | 'fields'>;
  metrics: DocpipeMetrics;
  /** What `/readyz` checks; `docpipe start` adds its office pool to `serve`'s. */
  checks: Record<string, ReadinessCheck>;
  /** The installation's queues, for the dashboard. */
  queues: readonly Queue[];
  logger?: FastifyBaseLogger;
  /**
   * The HMAC secret of signed URLs, as the service resolved it (the shared one in Redis).
   * @defaultValue config.signingSecret (DOCPIPE_SIGNING_SECRET)
   */
  signingSecret?: string;
}

/**
 * The HTTP service: the spec's document endpoints (v2 convert; v3 file upload and pre-signed
 * URLs; the v3 library), the downloads signed URLs point at, health, metrics, the queue
 * dashboard and the OpenAPI document. Each surface is its own encapsulated context, with its own
 * authentication (v2- or v3-shaped failures), rate limit and error shapes in front of its routes.
 */
export async function buildHttpServer(deps: HttpServerDeps): Promise<HttpApp> {
  const { config } = deps;
  const http = config.http;
  const app = createHttpApp({ bodyLimit: http.bodyLimitBytes, logger: deps.logger });
  const recorder = routeRecorder();
  app.addHook('onRoute', recorder.onRoute);
  observeHttpRequests(app, deps.metrics);
  await registerOpenApi(app, deps.publicUrl);
  const signingSecret = deps.signingSecret ?? config.signingSecret;
  if (signingSecret === undefined)
    throw new Error('the HTTP service needs a signing secret (DOCPIPE_SIGNING_SECRET or Redis)');
  const urls = {
    publicUrl: deps.publicUrl,
    signingSecret,
    signedUrlTtlSeconds: http.signedUrlTtlSeconds,
  };
  const limit = (perMinute: number, surface: 'v2' | 'v3') => ({
    redis: deps.redis,
    redisUrl: deps.redisUrl,
    prefix: config.queue.prefix,
    perMinute,
    surface,
  });

  // Working keys are reused for a few seconds (a revocation takes effect within them).
  const verifier = new VerifiedKeyCache(deps.keys);
  // v2 and the file endpoints share one count per key, as the spec's section 8 describes.
  await app.register(async (v2) => {
    v2.addHook('onRequest', authenticateV2(verifier));
    await registerRateLimit(v2, limit(http.rateLimitV2, 'v2'));
    await v2.register(convertRoutes, {
      client: deps.client,
      storage: deps.storage,
      resolveDocumentUrl: documentUrlResolver({ ...urls, storage: deps.storage }),
      signedUrlFor: renderUrlSigner(urls),
    });
    await v2.register(fileRoutes, {
      storage: deps.storage,
      preparer: deps.preparer,
      signedUrls: new RedisSignedUrlCache(deps.redis, config.queue.prefix),
      publicUrl: deps.publicUrl,
      signingSecret,
      signedUrlTtlSeconds: http.signedUrlTtlSeconds,
      maxUploadBytes: config.limits.maxInputBytes,
      bodyLimitBytes: http.bodyLimitBytes,
    });
  });
  await app.register(async (v3) => {
    v3.addHook('onRequest', authenticateV3(verifier));
    await registerRateLimit(v3, limit(http.rateLimitV3, 'v3'));
    await v3.register(documentsRoutes, { library: deps.library, preparer: deps.preparer });
  });
  // The signature is the capability: no key needed.
  await app.register(downloadRoutes, {
    storage: deps.storage,
    signingSecret,
  });
  await app.register(healthRoutes, { checks: deps.checks });
  await app.register(metricsRoutes, { metrics: deps.metrics, adminPassword: http.adminPassword });
  await app.register(dashboardRoutes, { adminPassword: http.adminPassword, queues: deps.queues });
  await app.ready();
  const missing = undocumentedRoutes(recorder.routes, Object.keys(app.swagger().paths ?? {}));
  if (missing.length > 0) {
    await app.close();
    throw new Error(`routes without an OpenAPI description: ${missing.join(', ')}`);
  }
  return app;
}
