import { loadConfig } from '../../../app/config/index.js';
import { openStorage } from '../../../app/parts/index.js';
import {
  CompanyRepository,
  FolderRepository,
  RecordNotFoundError,
} from '../../../service/companies/index.js';
import {
  FormFileError,
  FormRepository,
  formView,
  importForm,
  type FormRecord,
} from '../../../service/forms/index.js';
import { EXIT } from '../exit-codes.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** `docpipe forms import`, declared in commands/forms.ts. */
export async function importFormFolder(
  folder: string,
  flags: { company: string; json?: boolean },
): Promise<void> {
  const company = companyFlag(flags.company)!;
  const config = loadConfig();
  const storage = await openStorage(config);
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    try {
      const { form, replaced } = await importForm(
        { db, storage, limits: config.limits, delimiters: config.delimiters },
        company,
        folder,
      );
      if (flags.json) printJson({ ...operatorView(form), replaced });
      else
        process.stdout.write(
          `${replaced ? 'replaced' : 'imported'} form ${JSON.stringify(form.title)} (id ${form.id}, ${form.documents.length} document${form.documents.length === 1 ? '' : 's'}, ${form.tags.length} tag${form.tags.length === 1 ? '' : 's'}) in company ${company}\n`,
        );
    } catch (err) {
      if (!(err instanceof FormFileError)) throw err;
      // Each problem names its field in the file, and a template's names the template.
      if (flags.json)
        printJson({ error: 'validation-failed', file: err.file, details: err.problems });
      process.stderr.write(
        `docpipe: ${err.file}: the form is refused; nothing was imported:\n` +
          err.problems.map((p) => `  ${p.field || '(file)'}: ${p.message}\n`).join(''),
      );
      process.exitCode = EXIT.usage;
    }
  });
}

/** `docpipe forms list`, declared in commands/forms.ts. */
export async function listForms(flags: { company: string; json?: boolean }): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    // An empty list would say "no forms" of a company id that was mistyped.
    if (!(await new CompanyRepository(db).find(company)))
      throw new RecordNotFoundError('company', company);
    const forms = await new FormRepository(db).list(company);
    if (flags.json) {
      const folder = (await new FolderRepository(db).defaultFolder(company)).name;
      printJson(forms.map((f) => formView(f, folder)));
    } else if (forms.length === 0)
      process.stderr.write(
        `docpipe: company ${company} has no forms; import one with: docpipe forms import <folder> --company ${company}\n`,
      );
    else process.stdout.write(table(forms));
  });
}

/** What the operator sees of an imported form: the API's members and each template's file. */
function operatorView(form: FormRecord) {
  return {
    id: form.id,
    company: form.company,
    title: form.title,
    folder: form.folder,
    active: form.active,
    webflow: form.webflow,
    settings: form.settings,
    tags: form.tags,
    recipients: form.recipients,
    documents: form.documents.map((d) => ({
      name: d.name,
      file: d.file,
      type: d.kind,
      sha256: d.sha256,
      bytes: d.bytes,
      ...(d.documentMustBeRead !== undefined ? { documentMustBeRead: d.documentMustBeRead } : {}),
      ...(d.signObligated !== undefined ? { signObligated: d.signObligated } : {}),
      ...(d.signatories !== undefined ? { signatories: d.signatories } : {}),
    })),
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
  };
}

function table(forms: FormRecord[]): string {
  return textTable(
    ['ID', 'UPDATED', 'ACTIVE', 'WEBFLOW', 'DOCUMENTS', 'TITLE'],
    forms.map((f) => [
      f.id,
      when(f.updatedAt),
      f.active ? 'yes' : 'no',
      f.webflow ? 'yes' : 'no',
      String(f.documents.length),
      f.title,
    ]),
  );
}
