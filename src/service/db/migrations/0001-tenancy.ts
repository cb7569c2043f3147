import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Companies and what they own apart from cases: users, API keys (hashed), folders, presets and
 * message templates. Every row of a company's things names the company, and every id that a
 * company chooses or sees is unique within it only: another company's id is simply absent.
 * Written against Kysely<unknown>: a migration sees the schema as it was then, not as
 * schema.ts describes it now.
 */
export const tenancy: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('companies')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('signing_domain', 'text')
      .addColumn('default_language', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('admin', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('users_company_email')
      .on('users')
      .unique()
      .expression(sql`company_id, lower(email)`)
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('hash', 'bytea', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('api_keys_company').on('api_keys').column('company_id').execute();

    await db.schema
      .createTable('folders')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'text', (c) => c.notNull().defaultTo(sql`gen_random_uuid()::text`))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('folders_pk', ['company_id', 'id'])
      .addUniqueConstraint('folders_company_name', ['company_id', 'name'])
      .execute();
    // At most one default folder a company.
    await db.schema
      .createIndex('folders_one_default')
      .on('folders')
      .column('company_id')
      .unique()
      .where(sql.ref('is_default'), '=', true)
      .execute();

    await db.schema
      .createTable('presets')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'text', (c) => c.notNull().defaultTo(sql`gen_random_uuid()::text`))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('settings', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('presets_pk', ['company_id', 'id'])
      .addUniqueConstraint('presets_company_name', ['company_id', 'name'])
      .execute();

    await db.schema
      .createTable('message_templates')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'text', (c) => c.notNull().defaultTo(sql`gen_random_uuid()::text`))
      .addColumn('name', 'text')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('message_templates_pk', ['company_id', 'id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'message_templates',
      'presets',
      'folders',
      'api_keys',
      'users',
      'companies',
    ])
      await db.schema.dropTable(table).execute();
  },
};
