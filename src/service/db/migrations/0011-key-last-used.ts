import type { Kysely, Migration } from 'kysely';

/**
 * `api_keys.last_used_at` (issue 33): when a key last authenticated a request, for the
 * dashboard's key list ("last used"), so that a person can tell a key still in use from one that
 * can be revoked. Written at most once a minute per key by the servers (service/keys'
 * KeyUseRecorder), never in the request's path; null for a key never used since.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const keyLastUsed: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'timestamptz').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  },
};
