import type { Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import { FolderLibrary } from '../../document/library/index.js';
import type { DocpipeClient } from '../../jobs/queue/index.js';
import { signUrl, type Storage } from '../../render/storage/index.js';
import { CaseService } from '../../service/cases/index.js';
import type { Database } from '../../service/db/index.js';
import type { FlowCompletedHook } from '../../service/delivery/index.js';
import { cprSchemes, servedSchemes } from '../../service/eid/index.js';
import { makeCaseOfFlow } from '../../service/webflows/index.js';
import type { DocpipeConfig } from '../config/index.js';
import { caseCreditsFor, cprCipherFor } from './case-parts.js';

export interface FlowCaseParts {
  config: DocpipeConfig;
  db: Kysely<Database>;
  storage: Storage;
  /** The queue's producer: the case's documents are rendered by the workers, as any case's. */
  client: Pick<DocpipeClient, 'render' | 'renderDocumentSet'>;
  signingSecret: string;
  /** The signing pages' public URL, asked for each case. */
  publicUrl: () => string;
  logger: Logger;
  now?: () => Date;
}

/**
 * What a worker does when a web-flow is completed: the signing case its `case` member asked
 * for, made through the same case service as the API's (the same rules, credits, cipher and
 * signing links), created by the flow's sender. makeCaseOfFlow makes it once however often the
 * event is handled; a refusal is kept on the flow (GET shows it as `caseError`) and logged, and
 * an outage throws, so that the event's job is tried again.
 */
export async function flowCaseHook(parts: FlowCaseParts): Promise<FlowCompletedHook> {
  const { config, db, storage, logger, signingSecret } = parts;
  const cipher = await cprCipherFor(config);
  const ttlMs = config.http.signedUrlTtlSeconds * 1000;
  const cases = new CaseService({
    db,
    client: parts.client,
    storage,
    library: new FolderLibrary(config.templatesDir),
    documentUrl: (key, name) =>
      signUrl(parts.publicUrl(), key, new Date(Date.now() + ttlMs), signingSecret, name),
    eidSchemes: servedSchemes(config.eid),
    cprSchemes: cprSchemes(config.eid),
    ...(cipher ? { cprCipher: cipher } : {}),
    signingSecret,
    credits: caseCreditsFor({ db, config, logger }),
  });
  return async ({ company, flowId }) => {
    const made = await makeCaseOfFlow(
      {
        db,
        storage,
        cases,
        ...(cipher ? { cipher } : {}),
        valueLimits: config.values,
        publicUrl: parts.publicUrl(),
        ...(parts.now ? { now: parts.now } : {}),
      },
      company,
      flowId,
    );
    if (made.outcome === 'created')
      logger.info(
        { company, flow: flowId, case: made.caseId },
        'a completed web-flow made its case',
      );
    else if (made.outcome === 'refused')
      logger.warn(
        { company, flow: flowId, slug: made.error.slug, details: made.error.details },
        "a completed web-flow's case was refused; GET /v3/api/webflows/{id} shows why",
      );
  };
}
