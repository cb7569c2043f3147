import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The dashboard case list's search (issue 34): a case-insensitive substring search over a case's
 * title and reference and its recipients' names and e-mails. `lower(x) like '%q%'` can only use a
 * trigram index, so pg_trgm (PostgreSQL contrib) backs each searched expression with a GIN index;
 * the search's query must use the same expressions. Written against Kysely<unknown>.
 */
export const caseSearch: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index if not exists cases_search_title on cases using gin (lower(title) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index if not exists cases_search_reference on cases using gin (lower(reference_id) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index if not exists recipients_search_name on recipients using gin (lower(name) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index if not exists recipients_search_email on recipients using gin (lower(email) gin_trgm_ops)`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>) {
    for (const name of [
      'recipients_search_email',
      'recipients_search_name',
      'cases_search_reference',
      'cases_search_title',
    ]) {
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
    }
  },
};
