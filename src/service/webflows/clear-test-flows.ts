import type { Kysely } from 'kysely';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import type { FlowForm } from './flow-form.js';
import { flowTemplatesFolder, removeFlowTemplates } from './flow-templates.js';

/** Flows deleted a round: a long backlog is deleted in pieces. */
const BATCH = 200;

export interface ClearTestFlowsOptions {
  db: Kysely<Database>;
  storage: Storage;
  /** A flow created at least this long ago is deleted (`DOCPIPE_TEST_DATA_RETENTION`). */
  olderThanMs: number;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Stops between two rounds (a closing process); what was deleted so far is reported. */
  signal?: AbortSignal;
}

/**
 * The test environment's clearing of old web-flows, beside its cases' (spec 8: "test data may be
 * cleared periodically"): every flow created `olderThanMs` ago or earlier is deleted with its
 * people, answers, messages and events (the foreign keys cascade), then its own copies of its
 * form's templates. A case the flow made is the cases' sweep's. Only ever called in the test
 * environment; the caller decides that. Answers how many flows were deleted, or why it stopped.
 */
export async function clearTestFlows(
  options: ClearTestFlowsOptions,
): Promise<{ deleted: number; stopped?: string }> {
  const now = options.now ?? Date.now;
  const cutoff = new Date(now() - options.olderThanMs);
  let deleted = 0;
  for (;;) {
    if (options.signal?.aborted) return { deleted, stopped: 'the process is stopping' };
    const gone = await options.db
      .deleteFrom('webflows')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webflows')
          .select('id')
          .where('created_at', '<=', cutoff)
          .orderBy('created_at')
          .limit(BATCH),
      )
      .returning(['company_id', 'id', 'form'])
      .execute();
    // After the rows: a copy left by a failed delete costs space only, a flow without its
    // templates could not make its case.
    for (const flow of gone) {
      const own = flowTemplatesFolder(flow.company_id, flow.id);
      const keys = (flow.form as FlowForm).documents
        .map((d) => d.storageKey)
        .filter((k) => k.startsWith(own));
      await removeFlowTemplates(options.storage, keys);
    }
    deleted += gone.length;
    if (gone.length < BATCH) return { deleted };
  }
}
