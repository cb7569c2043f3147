import { sql, type Kysely, type Migration } from 'kysely';

/** Migration 0013's four indexes, which this one replaces. */
const FIELD_INDEXES = {
  cases_search_title: sql`cases using gin (lower(title) gin_trgm_ops)`,
  cases_search_reference: sql`cases using gin (lower(reference_id) gin_trgm_ops)`,
  recipients_search_name: sql`recipients using gin (lower(name) gin_trgm_ops)`,
  recipients_search_email: sql`recipients using gin (lower(email) gin_trgm_ops)`,
} as const;

/**
 * Sets every case's search text from its rows, as case-search-text.ts writes it for a new case
 * (the fold aside: lower() folds only ASCII in the C locale, so the Danish and other Latin-1
 * capitals are folded by translate() first). Also for the benchmark's and tests' cases, which
 * are written straight into the tables (`company`: only its cases).
 */
export async function fillCaseSearchText<DB>(db: Kysely<DB>, company?: string): Promise<void> {
  const fold = (text: ReturnType<typeof sql>) =>
    sql`lower(translate(${text}, 'ÆØÅÄÖÜÉÈÊÁÀÂÍÓÒÔÚÙÛÑÇ', 'æøåäöüéèêáàâíóòôúùûñç'))`;
  await sql`update cases c set search_text = ${fold(sql`c.title || chr(10) || coalesce(c.reference_id, '')
    || coalesce((select string_agg(chr(10) || r.name || chr(10) || coalesce(r.email, ''), '' order by r.position)
      from recipients r where r.company_id = c.company_id and r.case_id = c.id), '')`)}
    ${company === undefined ? sql`` : sql`where c.company_id = ${company}`}`.execute(db);
}

/**
 * The dashboard's case search in one column (issue 34): `cases.search_text` holds the case's
 * title, reference and recipients' names and e-mails, folded, one per line, written with the case
 * (service/cases/case-search-text.ts). One trigram index over it replaces migration 0013's four:
 * the search becomes one condition on one table, which the planner can estimate, so a rare term
 * reads the index and a common one the newest cases, and a recipient's write keeps no index of
 * its own. Existing cases are filled here.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const caseSearchText: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('cases')
      .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await fillCaseSearchText(db);
    await sql`create index if not exists cases_search_text on cases using gin (search_text gin_trgm_ops)`.execute(
      db,
    );
    for (const name of Object.keys(FIELD_INDEXES))
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    for (const [name, on] of Object.entries(FIELD_INDEXES))
      await sql`create index if not exists ${sql.id(name)} on ${on}`.execute(db);
    await sql`drop index if exists cases_search_text`.execute(db);
    await db.schema.alterTable('cases').dropColumn('search_text').execute();
  },
};
