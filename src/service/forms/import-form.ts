import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { FailureDetail } from '../../base/errors/index.js';
import { readJson } from '../../base/files/index.js';
import type { Storage } from '../../render/storage/index.js';
import { CompanyRepository, FolderRepository, RecordNotFoundError } from '../companies/index.js';
import type { Database } from '../db/index.js';
import { FORM_FILE, FormFileError, parseFormFile } from './form-file.js';
import { FormRepository } from './form-repository.js';
import { formTemplateKey } from './form-storage.js';
import { readFormTemplates, type TemplateCheckOptions } from './form-templates.js';
import type { FormRecord, StoredFormDocument } from './form-types.js';

export interface ImportFormDeps extends TemplateCheckOptions {
  db: Kysely<Database>;
  storage: Storage;
  /** The clock. @defaultValue new Date() */
  now?: Date;
}

export interface ImportedForm {
  form: FormRecord;
  /** Whether it replaced the company's form of the same id. */
  replaced: boolean;
}

/**
 * `docpipe forms import <folder> --company <id>`: the form `folder/form.json` describes, with
 * its templates, checked whole before anything is written (form.json's members; its folder is
 * one of the company's; every template a PDF or a .docx whose tags are all the form's, by lint),
 * then its templates stored under keys of this import's own and the row written, replacing the
 * form of the same id. Refusals: RecordNotFoundError (the company), FormFileError (every
 * problem of form.json and the templates at once, each at its path, the file named), InputError
 * (form.json unreadable or no JSON). A refused import leaves the form as it was, and no template
 * behind; the templates a re-import replaced are removed once the new row is in.
 */
export async function importForm(
  deps: ImportFormDeps,
  company: string,
  folder: string,
): Promise<ImportedForm> {
  if (!(await new CompanyRepository(deps.db).find(company)))
    throw new RecordNotFoundError('company', company);
  const dir = resolve(folder);
  const isFolder = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder)
    throw new FormFileError(folder, [
      {
        field: '',
        message: 'is not a folder: give the folder that holds form.json and its templates',
      },
    ]);
  const file = join(folder, FORM_FILE);
  const parsed = parseFormFile(await readJson(file), basename(dir), file);

  const problems: FailureDetail[] = [];
  let folderName: string | null = null;
  if (parsed.folder !== null) {
    const found = await new FolderRepository(deps.db).find(company, parsed.folder);
    if (found) folderName = found.name;
    else
      problems.push({
        field: 'folder',
        message: `company ${company} has no folder ${JSON.stringify(parsed.folder)} ("docpipe folders list --company ${company}" shows them; leave folder out for the default one)`,
      });
  }
  const read = await readFormTemplates(dir, parsed.documents, parsed.tags, deps);
  problems.push(...read.problems);
  if (problems.length > 0) throw new FormFileError(file, problems);

  const importId = randomUUID();
  const documents: StoredFormDocument[] = [];
  const written: string[] = [];
  const removeWritten = () =>
    Promise.all(written.map((k) => deps.storage.delete(k).catch(() => undefined)));
  let outcome: { form: FormRecord; replaced: FormRecord | undefined };
  try {
    for (const [i, doc] of parsed.documents.entries()) {
      const template = read.templates[i]!;
      const key = formTemplateKey(company, importId, i, template.kind);
      written.push(key);
      await deps.storage.put(key, template.bytes, contentType(template.kind));
      const { file: given, name, ...flags } = doc;
      documents.push({
        ...flags,
        name,
        storageKey: key,
        kind: template.kind,
        sha256: template.sha256,
        bytes: template.bytes.length,
        file: given,
      });
    }
    outcome = await new FormRepository(deps.db).replace(
      {
        company,
        id: parsed.id,
        title: parsed.title,
        folder: folderName,
        active: parsed.active,
        webflow: parsed.webflow,
        settings: parsed.settings,
        tags: parsed.tags,
        recipients: parsed.recipients,
        documents,
      },
      deps.now ?? new Date(),
    );
  } catch (err) {
    await removeWritten();
    throw err;
  }
  // The old templates are no one's now; one left behind by a failure here only costs space.
  if (outcome.replaced)
    await Promise.all(
      outcome.replaced.documents.map((d) =>
        deps.storage.delete(d.storageKey).catch(() => undefined),
      ),
    );
  return { form: outcome.form, replaced: outcome.replaced !== undefined };
}

function contentType(kind: 'docx' | 'pdf'): string {
  return kind === 'pdf'
    ? 'application/pdf'
    : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
}
