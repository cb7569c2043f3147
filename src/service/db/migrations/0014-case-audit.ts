import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A case's audit records (issue 34): what people did to a case that the case's outbox does not
 * carry, because it is no webhook's business, first of all a member taking a recipient's
 * signing link from the dashboard. Each names the member by id and by name as it was then (a
 * removed member's records stay, their name kept). Deleted with the case.
 * And an index of webhook deliveries by case: a case's page lists its webhook runs, and its live
 * part reads them every few seconds while the page is open.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const caseAudit: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('case_audit')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('recipient_id', 'uuid')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addForeignKeyConstraint(
        'case_audit_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('case_audit_case')
      .on('case_audit')
      .columns(['company_id', 'case_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_case')
      .on('webhook_deliveries')
      .columns(['company_id', 'case_id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_case').execute();
    await db.schema.dropTable('case_audit').execute();
  },
};
