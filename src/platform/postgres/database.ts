import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Outage } from '../../base/errors/index.js';
import { safeUrl } from '../../base/util/index.js';

export interface OpenDatabaseOptions {
  /** Connections the pool may open. @defaultValue 10 (pg's default) */
  maxConnections?: number;
  /** @defaultValue 5000 ms */
  connectTimeoutMs?: number;
}

/**
 * A typed query builder over a pool of connections to `url`. Kysely builds every statement
 * with parameters, so no SQL is put together from strings. The pool connects on the first query.
 */
export function openDatabase<DB>(url: string, options: OpenDatabaseOptions = {}): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // An idle connection the server drops (a restart) is an 'error' on the pool; unhandled, it
  // would end the process. The next query opens a new connection and fails there if it must.
  pool.on('error', () => undefined);
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * PostgreSQL does not answer at `url`: not running, or refusing the connection. Its message names
 * the server (without a password) and what to do. An outage (src/base/errors/outages.ts): 503 with
 * Retry-After for an HTTP caller, exit status 3 for the CLI.
 */
export class DatabaseUnavailableError extends Error implements Outage {
  override readonly name = 'DatabaseUnavailableError';
  readonly outage = 'database-unavailable';

  constructor(url: string, cause: unknown) {
    const code = (cause as { code?: string } | undefined)?.code;
    super(
      `cannot reach PostgreSQL at ${safeUrl(url)}${code ? ` (${code})` : ''}: ` +
        `${(cause as Error)?.message ?? cause}. Start it ("docpipe start" runs its own; with ` +
        'DATABASE_URL, that server), then run this again',
      { cause },
    );
  }
}

/** Checks that the database answers, so that a command fails at once with a clear message. */
export async function checkDatabase<DB>(db: Kysely<DB>, url: string): Promise<void> {
  try {
    await sql`SELECT 1`.execute(db);
  } catch (err) {
    throw new DatabaseUnavailableError(url, err);
  }
}
