import type { Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import { readCprKeyFile, type DocpipeConfig } from '../config/index.js';
import type { CaseCredits } from '../../service/cases/index.js';
import { CprCipher } from '../../service/cpr/index.js';
import { refillIfLow } from '../../service/credits/index.js';
import type { Database } from '../../service/db/index.js';

/**
 * The installation's CPR cipher: DOCPIPE_CPR_KEY, else the key a `docpipe start` keeps in the
 * data folder; undefined with neither (a request carrying a CPR number is then refused, 503, and
 * everything else works). One answer for the HTTP service and the worker, which decrypt each
 * other's numbers.
 */
export async function cprCipherFor(
  config: Pick<DocpipeConfig, 'cprKey' | 'dataDir'>,
): Promise<CprCipher | undefined> {
  const key = config.cprKey ?? (await readCprKeyFile(config.dataDir));
  return key ? new CprCipher(key) : undefined;
}

/**
 * What a sent case costs (DOCPIPE_CREDITS_PER_CASE), and the company's auto-refill after it:
 * invoice and EAN packs are recorded at once; a card refill needs a payment provider, which
 * docpipe has none of, and is logged as not bought. The same wherever a case is made (the API,
 * the dashboard, a completed web-flow in the worker).
 */
export function caseCreditsFor(parts: {
  db: Kysely<Database>;
  config: Pick<DocpipeConfig, 'credits'>;
  logger?: Logger | undefined;
}): CaseCredits {
  const { db, config, logger } = parts;
  const pricing = { unitPriceOre: config.credits.unitPriceOre, vatPpm: config.credits.vatPpm };
  return {
    perCase: config.credits.perCase,
    afterUse: (company) =>
      refillIfLow({ db, pricing }, company).then(
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
