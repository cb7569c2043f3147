import { sql, type Kysely, type Migration } from 'kysely';

/**
 * v2 forms (spec 4.1): a form the operator imports (`docpipe forms import`), with its title,
 * folder, case settings, TagDefinitions, preset recipients and its documents (the templates are
 * in storage; the row holds their keys). Ids are the operator's, unique per company; a re-import
 * of the same id replaces the row. And the encrypted CPR number of a recipient who signs with
 * it (`needsCpr` on form submit): AES-256-GCM ciphertext with its format and key id, never the
 * number itself. Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const forms: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('forms')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      // A folder's name, as the form's cases are filed (v2 names folders; none: the default).
      .addColumn('folder_name', 'text')
      .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('settings', 'jsonb', (c) => c.notNull())
      .addColumn('tags', 'jsonb', (c) => c.notNull())
      .addColumn('recipients', 'jsonb', (c) => c.notNull())
      .addColumn('documents', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('forms_pk', ['company_id', 'id'])
      .execute();

    await db.schema.alterTable('recipients').addColumn('cpr_encrypted', 'bytea').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('recipients').dropColumn('cpr_encrypted').execute();
    await db.schema.dropTable('forms').execute();
  },
};
