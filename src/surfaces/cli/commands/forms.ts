import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

const FORM_FOLDER_HELP =
  '\nA form folder holds form.json and the templates it names:\n' +
  '  {"id"?, "title", "folder"?, "active"?, "webflow"?, "settings"?, "tags"?: [{"tag", "type", "value"?, "name"?, "_id"?}],\n' +
  '   "recipients"?: [...], "documents": [{"name", "file": "lease.docx", "documentMustBeRead"?, ...}]}\n' +
  "The id defaults to the folder's name. Each .docx is sniffed and linted as docpipe lint does, with the\n" +
  "form's tags as its fields: a tag the form does not define refuses the import. See docs/forms.md.\n";

export function registerForms(program: Command): void {
  const forms = program
    .command('forms')
    .description(
      'import and list a company\'s v2 forms (form.json and its templates; made a case by POST .../forms/{id}/submit, or, with "webflow": true, asked of people by POST /v3/api/webflows)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe forms import examples/forms/lease --company acme\n' +
        '  docpipe forms list --company acme\n' +
        FORM_FOLDER_HELP +
        RECORDS_HELP,
    );

  forms
    .command('import')
    .description(
      'import the form a folder holds (form.json and its templates), checked whole first; the same id again replaces it',
    )
    .requiredOption('--company <id>', 'the company')
    .argument('<folder>', 'the form folder: form.json and the .docx or .pdf templates it names')
    .option(
      '--json',
      'print the form {id, title, folder, active, tags, recipients, documents, replaced} as JSON',
    )
    .addHelpText('after', FORM_FOLDER_HELP + RECORDS_HELP)
    .action(async (folder: string, flags: { company: string; json?: boolean }) =>
      (await import('../actions/forms.js')).importFormFolder(folder, flags),
    );

  forms
    .command('list')
    .description("a company's forms: id, updated, active, webflow, documents, title")
    .requiredOption('--company <id>', 'the company')
    .option('--json', 'print the list (each form as GET .../forms/{id}/get answers it) as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; json?: boolean }) =>
      (await import('../actions/forms.js')).listForms(flags),
    );
}
