import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Signing (issue 23): a recipient's signature, the eID logins under way, where each signer signs
 * in each document, and what sealing made of it.
 *
 * - `signatures`: one row per recipient at most (its primary key), so that two tabs or a retried
 *   request signing at once record one signature. The drawn image is kept here, re-encoded and
 *   capped (tens of KB), so that it is written with the signature in one transaction and
 *   deleted with its case; an eID signature keeps the broker's claims (never a CPR number).
 * - `recipients.acted_at` and `denial_reason`: when they signed or denied, and why they denied.
 * - `case_documents.places`: the signature places found after conversion (anchors, text tags,
 *   or the appended signature page), in PDF points; `must_be_read` (v2 `documentMustBeRead`);
 *   the sealed PDF's key, hash and size; and the document's evidence (hashes, fonts, versions).
 * - `cases.completed_at`: every signer has signed and sealing is due; the case becomes `signed`
 *   when its documents are sealed (`sealed_at`).
 * - `signing_logins`: an eID login started from a signing page, found again by the SHA-256 of
 *   its OAuth `state` when the broker sends the signer back; it expires within minutes.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const signing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('signatures')
      .addColumn('recipient_id', 'uuid', (c) =>
        c.primaryKey().references('recipients.id').onDelete('cascade'),
      )
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('typed_name', 'text')
      .addColumn('image', 'bytea')
      .addColumn('identity', 'jsonb')
      .addColumn('cpr_matched', 'boolean')
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .addColumn('signed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addForeignKeyConstraint(
        'signatures_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .addCheckConstraint(
        'signatures_has_mark',
        sql`image is not null or typed_name is not null or identity is not null`,
      )
      .execute();
    await db.schema
      .createIndex('signatures_case')
      .on('signatures')
      .columns(['company_id', 'case_id'])
      .execute();

    await db.schema
      .alterTable('recipients')
      .addColumn('acted_at', 'timestamptz')
      .addColumn('denial_reason', 'text')
      .execute();

    await db.schema
      .alterTable('case_documents')
      .addColumn('places', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('must_be_read', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('sealed_storage_key', 'text')
      .addColumn('sealed_sha256', 'text')
      .addColumn('sealed_bytes', 'integer')
      .addColumn('evidence', 'jsonb')
      .execute();

    await db.schema
      .alterTable('cases')
      .addColumn('completed_at', 'timestamptz')
      .addColumn('sealed_at', 'timestamptz')
      .execute();
    // The sealing sweep: cases whose signers are done and whose documents are not sealed yet.
    await db.schema
      .createIndex('cases_awaiting_seal')
      .on('cases')
      .column('completed_at')
      .where(sql.ref('sealed_at'), 'is', null)
      .where(sql.ref('completed_at'), 'is not', null)
      .execute();

    await db.schema
      .createTable('signing_logins')
      .addColumn('state_hash', 'bytea', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('recipient_id', 'uuid', (c) =>
        c.notNull().references('recipients.id').onDelete('cascade'),
      )
      .addColumn('pending', 'jsonb', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addForeignKeyConstraint(
        'signing_logins_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('signing_logins').execute();
    await db.schema.dropIndex('cases_awaiting_seal').execute();
    await db.schema
      .alterTable('cases')
      .dropColumn('completed_at')
      .dropColumn('sealed_at')
      .execute();
    await db.schema
      .alterTable('case_documents')
      .dropColumn('places')
      .dropColumn('must_be_read')
      .dropColumn('sealed_storage_key')
      .dropColumn('sealed_sha256')
      .dropColumn('sealed_bytes')
      .dropColumn('evidence')
      .execute();
    await db.schema
      .alterTable('recipients')
      .dropColumn('acted_at')
      .dropColumn('denial_reason')
      .execute();
    await db.schema.dropTable('signatures').execute();
  },
};
