import { caseCreditsFor, cprCipherFor } from '../../../app/wiring/index.js';
import { CaseService } from '../../../service/cases/index.js';
import type { CprCipher } from '../../../service/cpr/index.js';
import { QueueCaseDelivery } from '../../../service/delivery/index.js';
import { cprSchemes, servedSchemes } from '../../../service/eid/index.js';
import { renderUrlSigner } from '../convert/document-urls.js';
import type { HttpServerDeps } from './server-deps.js';
import type { SurfaceContext } from './surface.js';

/** The CPR cipher of this server (app/wiring's cprCipherFor, over its config). */
export function cprCipherOf(deps: HttpServerDeps): Promise<CprCipher | undefined> {
  return cprCipherFor(deps.config);
}

/**
 * The case service every case surface (v3 cases, v2 cases, v2 forms) is built on, from what the
 * server holds: the database, the queue's producer, the storage, the library, and the download
 * URLs of case documents, which name the server's public URL and its signing secret. Built the
 * same way for each, so that v2 and v3 read and write the same cases (spec 9).
 */
export async function caseServiceOf({ deps, signingSecret }: SurfaceContext): Promise<CaseService> {
  const cprCipher = await cprCipherOf(deps);
  return new CaseService({
    db: deps.db,
    client: deps.client,
    storage: deps.storage,
    library: deps.library,
    documentUrl: renderUrlSigner({
      publicUrl: deps.publicUrl,
      signingSecret,
      signedUrlTtlSeconds: deps.config.http.signedUrlTtlSeconds,
    }),
    // The configured brokers' schemes: known without asking a broker, so one that is down
    // never stops a case from being created.
    eidSchemes: servedSchemes(deps.config.eid),
    cprSchemes: cprSchemes(deps.config.eid),
    ...(cprCipher ? { cprCipher } : {}),
    signingSecret,
    ...(deps.events ? { delivery: new QueueCaseDelivery(deps.events) } : {}),
    credits: caseCreditsFor(deps),
  });
}
