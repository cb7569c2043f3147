import type { Kysely, Migration } from 'kysely';

/**
 * eID logins bound to the browser that started them (issue 31, RFC 6749 10.12):
 * - `signing_logins.browser_hash`: the SHA-256 of a random value the start gave that browser in
 *   an HttpOnly cookie; the callback signs only when the cookie it brings hashes to this. Rows
 *   of logins started before it have none, and their callbacks sign nothing (start again).
 * - An index by recipient: each start keeps only a few of a recipient's logins under way.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const eidLoginBrowser: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('signing_logins').addColumn('browser_hash', 'bytea').execute();
    await db.schema
      .createIndex('signing_logins_recipient')
      .on('signing_logins')
      .columns(['recipient_id', 'expires_at'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('signing_logins_recipient').execute();
    await db.schema.alterTable('signing_logins').dropColumn('browser_hash').execute();
  },
};
