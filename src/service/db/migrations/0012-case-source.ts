import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Where a case came from and who made it (issue 34), for the dashboard's case list:
 * - `cases.source`: `v3`, `v2` (v2 case create), `form` (v2 form submit) or `dashboard`. Cases
 *   made before this migration recorded none, and nothing in their rows tells a v2 case from a
 *   v3 one: they stay null, shown as not recorded, rather than guessed.
 * - `cases.created_by_user`: the member who made it in the dashboard (then `created_by_key` is
 *   null). A removed member's cases keep their rows: set null, as `sender_id` is.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const caseSource: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('cases')
      .addColumn('source', 'text', (c) => c.check(sql`source in ('v3', 'v2', 'form', 'dashboard')`))
      .addColumn('created_by_user', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('cases')
      .dropColumn('created_by_user')
      .dropColumn('source')
      .execute();
  },
};
