import { readCprKeyFile } from '../../../app/config/index.js';
import { CaseService, type CaseCredits } from '../../../service/cases/index.js';
import { refillIfLow } from '../../../service/credits/index.js';
import { CprCipher } from '../../../service/cpr/index.js';
import { QueueCaseDelivery } from '../../../service/delivery/index.js';
import { cprSchemes, servedSchemes } from '../../../service/eid/index.js';
import { renderUrlSigner } from '../convert/document-urls.js';
import type { HttpServerDeps } from './server-deps.js';
import type { SurfaceContext } from './surface.js';

/**
 * The CPR cipher of this server: DOCPIPE_CPR_KEY, else the key a `docpipe start` keeps in the
 * data folder; undefined with neither (a body carrying a CPR number is then refused, 503, and
 * everything else works).
 */
export async function cprCipherOf(deps: HttpServerDeps): Promise<CprCipher | undefined> {
  const key = deps.config.cprKey ?? (await readCprKeyFile(deps.config.dataDir));
  return key ? new CprCipher(key) : undefined;
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
    credits: caseCreditsOf(deps),
  });
}

/**
 * What a sent case costs on this server (DOCPIPE_CREDITS_PER_CASE), and the company's
 * auto-refill after it: invoice and EAN packs are recorded at once; a card refill needs a
 * payment provider, which this server has none of, and is logged as not bought.
 */
function caseCreditsOf(deps: HttpServerDeps): CaseCredits {
  const logger = deps.logger;
  const pricing = {
    unitPriceOre: deps.config.credits.unitPriceOre,
    vatPpm: deps.config.credits.vatPpm,
  };
  return {
    perCase: deps.config.credits.perCase,
    afterUse: (company) =>
      refillIfLow({ db: deps.db, pricing }, company).then(
        (bought) => {
          if (bought)
            logger?.info(
              { company, invoice: bought.invoiceNumber, credits: String(bought.credits) },
              'auto-refill bought credits',
            );
        },
        (err: unknown) =>
          logger?.warn({ err, company }, 'auto-refill could not buy credits; the case was sent'),
      ),
  };
}
