import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What a case tells after issue 32 (items 16 to 18):
 * - `companies.send_signed_copy_to_sender`: whether the sender of a case gets the signed copy
 *   too when the case is sealed (on unless the operator turns it off).
 * - `case_events` no longer cascades from `cases`: a deleted case's `case.deleted` is written in
 *   the delete's transaction and must outlive the case's rows to reach the webhooks. The delete
 *   removes the case's other events itself (service/cases' deleteCase).
 * - `recipients.acted_ip`: the address a recipient denied from (a signer's is its signature's
 *   `ip`; the signers of earlier cases get theirs copied), so that every event and the read say
 *   it, not only the event of the moment.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const caseViews: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('companies')
      .addColumn('send_signed_copy_to_sender', 'boolean', (c) => c.notNull().defaultTo(true))
      .execute();
    await db.schema.alterTable('case_events').dropConstraint('case_events_case_fk').execute();
    await db.schema.alterTable('recipients').addColumn('acted_ip', 'text').execute();
    // The signers of cases made before: their address is in their signature.
    await sql`update recipients r set acted_ip = s.ip from signatures s
      where s.recipient_id = r.id`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('recipients').dropColumn('acted_ip').execute();
    // Events of deleted cases have no case to point at any more.
    await sql`delete from case_events e where not exists
      (select 1 from cases c where c.company_id = e.company_id and c.id = e.case_id)`.execute(db);
    await db.schema
      .alterTable('case_events')
      .addForeignKeyConstraint(
        'case_events_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.alterTable('companies').dropColumn('send_signed_copy_to_sender').execute();
  },
};
