import type { Kysely } from 'kysely';
import type { DocpipeConfig } from '../config/index.js';
import type { RecordSweep } from '../../jobs/retention/index.js';
import type { Storage } from '../../render/storage/index.js';
import { clearTestCases } from '../../service/cases/index.js';
import type { Database } from '../../service/db/index.js';
import { clearTestFlows } from '../../service/webflows/index.js';

/**
 * The retention sweep's deletion of old test cases and web-flows: only in the test environment
 * (`DOCPIPE_ENVIRONMENT=test`) with `DOCPIPE_TEST_DATA_RETENTION` not off and a database;
 * undefined everywhere else, so that production's cases are never looked at.
 */
export function testDataSweep(
  config: Pick<DocpipeConfig, 'environment' | 'testDataRetentionMs'>,
  db: Kysely<Database> | undefined,
  storage: Storage,
  now: () => number = Date.now,
): RecordSweep | undefined {
  const olderThanMs = config.testDataRetentionMs;
  if (config.environment !== 'test' || olderThanMs === undefined || !db) return undefined;
  return {
    what: 'test cases and web-flows',
    async run(signal) {
      const cleared = await clearTestCases({ db, storage, olderThanMs, now, signal });
      const flows = cleared.stopped
        ? { deleted: 0 }
        : await clearTestFlows({ db, storage, olderThanMs, now, signal });
      const stopped = cleared.stopped ?? flows.stopped;
      return {
        removed: cleared.deleted + flows.deleted,
        failures: cleared.failures.map((f) => ({
          key: `${f.company}/${f.caseId}`,
          message: f.message,
        })),
        ...(stopped ? { stopped } : {}),
      };
    },
  };
}
