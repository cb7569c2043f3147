import type { Kysely } from 'kysely';
import { isConnectionFailure } from '../../platform/postgres/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import { deleteV2Case } from './v2-case-reads.js';

/** Cases read a round: a long backlog is deleted in pieces, not held in memory at once. */
const BATCH = 200;

export interface ClearTestCasesOptions {
  db: Kysely<Database>;
  storage: Storage;
  /** A case created at least this long ago is deleted (`DOCPIPE_TEST_DATA_RETENTION`). */
  olderThanMs: number;
  /** The clock ages are measured with, and the deletions' events dated by. @defaultValue Date.now */
  now?: () => number;
  /** Stops between two cases (a closing process); what was deleted so far is reported. */
  signal?: AbortSignal;
}

export interface ClearedTestCases {
  /** Cases deleted, with their rows, events and stored PDFs. */
  deleted: number;
  /** Cases whose deletion failed; the run went on with the next, and the next run tries again. */
  failures: { company: string; caseId: string; message: string }[];
  /** Why the run stopped before the end. */
  stopped?: string;
}

/**
 * The test environment's clearing of old data (spec 8: "test data may be cleared periodically"):
 * every company's cases created `olderThanMs` ago or earlier are deleted one by one as
 * `GET .../case/{id}/delete` deletes them (deleteV2Case: the rows, a `case.deleted` event so that
 * a webhook's copy does not go stale, then the stored PDFs). Only ever called in
 * the test environment; the caller decides that. Several sweepers at once are safe: the delete
 * locks the case's row, and a case another one deleted first counts as nothing here.
 * PostgreSQL not answering ends the run (it is thrown); any other failure of one case is
 * reported and the run goes on.
 */
export async function clearTestCases(options: ClearTestCasesOptions): Promise<ClearedTestCases> {
  const now = options.now ?? Date.now;
  const cutoff = new Date(now() - options.olderThanMs);
  const result: ClearedTestCases = { deleted: 0, failures: [] };
  // Paged by id after the last one seen, so that a case that failed is not read again in the
  // same run. Not by created_at: PostgreSQL keeps microseconds, which a Date would round away.
  let after: string | undefined;
  for (;;) {
    let query = options.db
      .selectFrom('cases')
      .select(['company_id', 'id'])
      .where('created_at', '<=', cutoff)
      .orderBy('id')
      .limit(BATCH);
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = await query.execute();
    for (const row of rows) {
      if (options.signal?.aborted) {
        result.stopped = 'the process is stopping';
        return result;
      }
      try {
        const outcome = await deleteV2Case(
          options.db,
          options.storage,
          row.company_id,
          row.id,
          new Date(now()),
        );
        result.deleted += outcome.deletedCount;
      } catch (err) {
        if (isConnectionFailure(err)) throw err;
        result.failures.push({
          company: row.company_id,
          caseId: row.id,
          message: (err as Error).message,
        });
      }
    }
    if (rows.length < BATCH) return result;
    after = rows[rows.length - 1]!.id;
  }
}
