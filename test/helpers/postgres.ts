import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { EmbeddedPostgres, openDatabase } from '../../src/platform/postgres/index.js';
import { migrateDatabase, type Database } from '../../src/service/db/index.js';

/**
 * A real PostgreSQL for integration tests: one server per vitest worker, started through the
 * embedded module (as `docpipe start` starts it: as the postgres user when the tests run as
 * root), on the first call in that worker, and shared by the files the worker runs after. Each
 * file gets a database of its own, so that files never see each other's rows. The project's
 * global set-up (postgres-global.ts) stops the servers when the run ends.
 */
export interface TestDatabase {
  /** The database's own name, made for this file. */
  name: string;
  /** DATABASE_URL of it, for a docpipe command. */
  url: string;
  /** A pool on it; closed by close(). */
  db: Kysely<Database>;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

/** A migrated copy of the schema each server keeps, from which migrated test databases are made. */
const TEMPLATE = 'docpipe_template';

let server: Promise<string> | undefined;

/** The admin URL of this worker's server, started if no earlier file of the worker started it. */
export function workerServer(): Promise<string> {
  server ??= ensureServer();
  return server;
}

async function ensureServer(): Promise<string> {
  const dir = join(inject('postgresRoot'), `w${process.env.VITEST_POOL_ID ?? '0'}`);
  const urlFile = join(dir, 'admin.url');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const known = readText(urlFile);
  if (known && (await answers(known))) return known;
  // The file that started it has ended: its lock is stale and the server is taken over.
  const started = await EmbeddedPostgres.start({ dir: join(dir, 'postgres') });
  const admin = started.urlFor('postgres');
  await createTemplate(started.urlFor(TEMPLATE), admin);
  writeFileSync(urlFile, admin);
  return admin;
}

/**
 * A fresh database of the file's own on this worker's server: with the schema of the latest
 * migration (`migrated`, the default), or empty, as a new installation's.
 */
export async function testDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const admin = await workerServer();
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onAdmin(admin, async (c) => {
    const template = options.migrated === false ? 'template0' : TEMPLATE;
    await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)} TEMPLATE ${template}`);
  });
  const url = withDatabase(admin, name);
  const db = openDatabase<Database>(url);
  return {
    name,
    url,
    db,
    async close() {
      await db.destroy();
      await onAdmin(admin, (c) =>
        c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`),
      );
    },
  };
}

/** The same server's URL for another database. */
export function withDatabase(url: string, database: string): string {
  return url.replace(/@\/[^?]*/, `@/${encodeURIComponent(database)}`);
}

async function createTemplate(templateUrl: string, admin: string): Promise<void> {
  await onAdmin(admin, async (c) => {
    const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE]);
    if (found.rowCount === 0) await c.query(`CREATE DATABASE ${TEMPLATE}`);
  });
  const db = openDatabase<Database>(templateUrl, { maxConnections: 1 });
  try {
    await migrateDatabase(db);
  } finally {
    // A template takes no copies while anyone is connected to it.
    await db.destroy();
  }
}

async function onAdmin<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await onAdmin(url, (c) => c.query('SELECT 1'));
    return true;
  } catch {
    return false;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
