import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/platform/postgres/index.js';
import type { Database } from '../../src/service/db/index.js';

/** A user of a company, whom a key can belong to. */
export interface KeyOwner {
  company: string;
  email: string;
  userId: string;
}

/**
 * A company (made if it is not there) and a new user of it, written straight into the tables as
 * `docpipe companies create` and `docpipe users add` would leave them: what `keys create`
 * needs before it makes a key. The e-mail defaults to `owner@<company>.example`.
 */
export async function addKeyOwner(
  db: Kysely<Database>,
  company: string,
  email = `owner@${company}.example`,
): Promise<KeyOwner> {
  await db
    .insertInto('companies')
    .values({ id: company, name: `Company ${company}` })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const user = await db
    .insertInto('users')
    .values({ company_id: company, email, name: `User ${email}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { company, email, userId: user.id };
}

/** addKeyOwner on the database at `url` (a docpipe process's), over a connection of its own. */
export async function addKeyOwnerAt(
  url: string,
  company: string,
  email?: string,
): Promise<KeyOwner> {
  const db = openDatabase<Database>(url, { maxConnections: 1 });
  try {
    return await addKeyOwner(db, company, email);
  } finally {
    await db.destroy();
  }
}
