import { sql, type Kysely, type Migration } from 'kysely';

/**
 * v3 signing cases: the case, its recipients, its documents, and its events (the outbox the
 * relay publishes from). Every row names its company, and a case's rows reach their case
 * through (company_id, case_id), so that no row can hang under another company's case. Signing
 * tokens are kept only as their SHA-256 (the token is in the signing link, never stored).
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const cases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('cases')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state in ('draft', 'open', 'signed', 'denied', 'expired')`),
      )
      .addColumn('folder_id', 'text', (c) => c.notNull())
      .addColumn('reference_id', 'text')
      .addColumn('settings', 'jsonb', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('signing_schemas', 'jsonb', (c) => c.notNull())
      .addColumn('message_template_id', 'text')
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('active_group', 'integer')
      // The sender as they were when the case was made: a member removed later keeps their name.
      .addColumn('sender_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('sender_name', 'text', (c) => c.notNull())
      .addColumn('sender_email', 'text', (c) => c.notNull())
      .addColumn('created_by_key', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('cases_pk', ['company_id', 'id'])
      .addForeignKeyConstraint('cases_folder_fk', ['company_id', 'folder_id'], 'folders', [
        'company_id',
        'id',
      ])
      .execute();
    // The list: a company's cases newest first, paged by (created_at, id).
    await db.schema
      .createIndex('cases_company_created')
      .on('cases')
      .columns(['company_id', 'created_at desc', 'id desc'])
      .execute();
    await db.schema
      .createIndex('cases_company_reference')
      .on('cases')
      .columns(['company_id', 'reference_id'])
      .where(sql.ref('reference_id'), 'is not', null)
      .execute();

    await db.schema
      .createTable('recipients')
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('uid', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('email', 'sms', 'eboks')`))
      .addColumn('signing', 'boolean', (c) => c.notNull())
      .addColumn('group', 'integer', (c) => c.notNull())
      .addColumn('message_template_id', 'text')
      .addColumn('details', 'jsonb', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status in ('pending', 'signed', 'denied')`),
      )
      .addColumn('signing_token_hash', 'bytea', (c) => c.notNull().unique())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('recipients_case_uid', ['company_id', 'case_id', 'uid'])
      .addForeignKeyConstraint(
        'recipients_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();

    await db.schema
      .createTable('case_documents')
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('index', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) =>
        c.notNull().check(sql`source in ('content', 'url', 'library')`),
      )
      // A stored PDF (content, library) or the URL it was given by (url): exactly one.
      .addColumn('storage_key', 'text')
      .addColumn('url', 'text')
      .addColumn('sha256', 'text')
      .addColumn('bytes', 'integer')
      .addColumn('pages', 'integer')
      .addColumn('library_document_id', 'text')
      .addColumn('library_version_id', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('case_documents_pk', ['company_id', 'case_id', 'index'])
      .addForeignKeyConstraint(
        'case_documents_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .addCheckConstraint('case_documents_one_place', sql`(storage_key is null) <> (url is null)`)
      .execute();

    // The outbox: an event is written in the transaction that makes its change, with its payload
    // fixed then, and published by the relay afterwards (published_at).
    await db.schema
      .createTable('case_events')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('published_at', 'timestamptz')
      .addForeignKeyConstraint(
        'case_events_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('case_events_unpublished')
      .on('case_events')
      .column('created_at')
      .where(sql.ref('published_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('case_events_case')
      .on('case_events')
      .columns(['company_id', 'case_id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['case_events', 'case_documents', 'recipients', 'cases'])
      await db.schema.dropTable(table).execute();
  },
};
