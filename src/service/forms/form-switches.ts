import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { formOf } from './form-repository.js';
import type { FormRecord } from './form-types.js';

/**
 * The two switches of a form (issue 36) the dashboard turns: `published` is `forms.active` (v2
 * submit and web-flows take only a published form), `webflow` is `forms.webflow` (it may start
 * web-flows; meaningful only while published). form.json sets both at import; a re-import sets
 * them again from the file, as it replaces the rest of the form.
 */
export type FormSwitch = 'published' | 'webflow';

const COLUMN = { published: 'active', webflow: 'webflow' } as const;

/**
 * Sets one switch of the company's form, and answers the form as it is now with whether the
 * switch changed; undefined when the company has no such form (another company's too). A running
 * web-flow keeps its own copy of its form: a switch changes only what starts from now on.
 */
export async function setFormSwitch(
  db: Kysely<Database>,
  company: string,
  id: string,
  which: FormSwitch,
  on: boolean,
  now: Date = new Date(),
): Promise<{ form: FormRecord; changed: boolean } | undefined> {
  const column = COLUMN[which];
  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('forms')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return undefined;
    if (before[column] === on) return { form: formOf(before), changed: false };
    const row = await tx
      .updateTable('forms')
      .set({ [column]: on, updated_at: now })
      .where('company_id', '=', company)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { form: formOf(row), changed: true };
  });
}
