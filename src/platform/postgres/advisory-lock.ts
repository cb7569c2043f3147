import { sql, type Kysely } from 'kysely';

/**
 * Runs `work` while this session holds PostgreSQL's advisory lock `key`, waiting for it first:
 * of several processes that start at once (many `serve`), one does the work at a time, and the
 * others find it done. `work` gets the one connection that holds the lock; the lock goes with
 * the session if the process dies, so it is never left behind.
 */
export async function withAdvisoryLock<DB, T>(
  db: Kysely<DB>,
  key: bigint,
  work: (locked: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (locked) => {
    await sql`SELECT pg_advisory_lock(${key})`.execute(locked);
    try {
      return await work(locked);
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(locked);
    }
  });
}
