import { basename, join } from 'node:path';
import { InputError } from '../../base/files/index.js';
import { UrlFile } from '../embedded/index.js';

/**
 * A `postgresql://` URL for a server's Unix socket in `socketDir`: pg reads a `host` that is a
 * path as the socket's folder. The path is percent-encoded but for its slashes, which a query
 * may hold, so that the URL stays readable.
 */
export function socketUrl(socketDir: string, database: string, user: string): string {
  const host = encodeURIComponent(socketDir).replace(/%2F/gi, '/');
  return `postgresql://${encodeURIComponent(user)}@/${encodeURIComponent(database)}?host=${host}`;
}

/** Where to look for PostgreSQL: what a DocpipeConfig holds of it. */
export interface DatabaseWhere {
  /** DATABASE_URL, when set. */
  databaseUrl?: string;
  /** DOCPIPE_DATA_DIR: where `docpipe start` writes the URL of its embedded PostgreSQL. */
  dataDir: string;
}

/** Where `docpipe start` writes the URL of its embedded PostgreSQL, for commands in other terminals. */
export const databaseUrlFile = (dataDir: string): UrlFile =>
  new UrlFile(join(dataDir, 'postgres.url'));

/** The PostgreSQL to use: DATABASE_URL, or the one a running `docpipe start` wrote down. */
export async function resolveDatabaseUrl(where: DatabaseWhere): Promise<string | undefined> {
  if (where.databaseUrl) return where.databaseUrl;
  return databaseUrlFile(where.dataDir).read();
}

/**
 * No PostgreSQL to use: DATABASE_URL is not set, and no `docpipe start` runs on the data folder
 * that was searched. An InputError: the CLI answers it as bad usage (exit status 2).
 */
export class NoDatabaseError extends InputError {
  override readonly name = 'NoDatabaseError';

  constructor(
    readonly dataDir: string,
    readonly urlFile: string,
  ) {
    super(
      `no PostgreSQL: DATABASE_URL is not set, and no "docpipe start" runs on the data folder ${dataDir} ` +
        `(it has no ${basename(urlFile)}). Set DATABASE_URL, or run "docpipe start" first; to use ` +
        'the one that runs on another folder, set DOCPIPE_DATA_DIR to it',
    );
  }
}

/** resolveDatabaseUrl for a command that cannot do without it: NoDatabaseError when there is none. */
export async function requireDatabaseUrl(where: DatabaseWhere): Promise<string> {
  const url = await resolveDatabaseUrl(where);
  if (url) return url;
  throw new NoDatabaseError(where.dataDir, databaseUrlFile(where.dataDir).path);
}
