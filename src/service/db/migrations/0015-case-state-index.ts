import { type Kysely, type Migration } from 'kysely';

/**
 * The dashboard case list's tabs (issue 34): a company's cases of one state, newest first, keyset
 * paged on (created_at desc, id desc) as cases_company_created pages them all. Without it a rare
 * state's first page walks the company's newest cases until it has found fifty of that state,
 * or reads and sorts them all (1% of 100,000 cases are expired). Written against Kysely<unknown>.
 */
export const caseStateIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('cases_company_state_created')
      .ifNotExists()
      .on('cases')
      .columns(['company_id', 'state', 'created_at desc', 'id desc'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('cases_company_state_created').ifExists().execute();
  },
};
