import type { Kysely, Selectable } from 'kysely';
import type { V2CaseSettings, V2Recipient } from '../cases/index.js';
import type { Database, FormsTable } from '../db/index.js';
import type { FormRecord, StoredFormDocument, TagDefinition } from './form-types.js';

/** A form to write: everything but its times. */
export type NewForm = Omit<FormRecord, 'createdAt' | 'updatedAt'>;

/**
 * A company's forms in PostgreSQL. Every query names the company: another company's form is
 * absent, never forbidden.
 */
export class FormRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The company's form with this id, or undefined (also for another company's). */
  async find(company: string, id: string): Promise<FormRecord | undefined> {
    const row = await this.db
      .selectFrom('forms')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && formOf(row);
  }

  /** The company's forms, by id. */
  async list(company: string): Promise<FormRecord[]> {
    const rows = await this.db
      .selectFrom('forms')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy('id')
      .execute();
    return rows.map(formOf);
  }

  /**
   * Writes the form, replacing the company's form of the same id (a re-import) in the same
   * statement: it keeps its creation time. Answers the form as written and the one it replaced.
   */
  async replace(
    form: NewForm,
    now: Date,
  ): Promise<{ form: FormRecord; replaced: FormRecord | undefined }> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('forms')
        .selectAll()
        .where('company_id', '=', form.company)
        .where('id', '=', form.id)
        .forUpdate()
        .executeTakeFirst();
      const values = {
        title: form.title,
        folder_name: form.folder,
        active: form.active,
        webflow: form.webflow,
        settings: JSON.stringify(form.settings),
        tags: JSON.stringify(form.tags),
        recipients: JSON.stringify(form.recipients),
        documents: JSON.stringify(form.documents),
        updated_at: now,
      };
      const row = await trx
        .insertInto('forms')
        .values({ company_id: form.company, id: form.id, ...values, created_at: now })
        .onConflict((oc) => oc.columns(['company_id', 'id']).doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return { form: formOf(row), replaced: before && formOf(before) };
    });
  }
}

/** A row as the service reads it (jsonb comes back parsed by pg). */
export function formOf(row: Selectable<FormsTable>): FormRecord {
  return {
    company: row.company_id,
    id: row.id,
    title: row.title,
    folder: row.folder_name,
    active: row.active,
    webflow: row.webflow,
    settings: row.settings as V2CaseSettings,
    tags: row.tags as TagDefinition[],
    recipients: row.recipients as V2Recipient[],
    documents: row.documents as StoredFormDocument[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
