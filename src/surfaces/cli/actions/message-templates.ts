import { readJson } from '../../../base/files/index.js';
import {
  MessageTemplateRepository,
  type MessageTemplate,
} from '../../../service/companies/index.js';
import { companyFlag, printJson } from '../io.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** `docpipe message-templates add`, declared in commands/message-templates.ts. */
export async function addMessageTemplate(
  file: string,
  flags: { company: string; json?: boolean },
): Promise<void> {
  const company = companyFlag(flags.company)!;
  // Read before the database is looked for: an unreadable file or bad JSON is named first.
  const data = await readJson(file);
  await withRecordsDatabase({ json: flags.json, file }, async (db) => {
    const template = await new MessageTemplateRepository(db).add(company, data);
    if (flags.json) printJson(template);
    else
      process.stdout.write(
        `added message template ${template.id} to company ${company}: ${JSON.stringify(template.subject)}\n`,
      );
  });
}

/** `docpipe message-templates list`, declared in commands/message-templates.ts. */
export async function listMessageTemplates(flags: {
  company: string;
  json?: boolean;
}): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const templates = await new MessageTemplateRepository(db).list(company);
    if (flags.json) printJson(templates);
    else if (templates.length === 0)
      process.stderr.write(
        `docpipe: company ${company} has no message templates; add one with: ` +
          `docpipe message-templates add --company ${company} <file.json>\n`,
      );
    else process.stdout.write(table(templates));
  });
}

function table(templates: MessageTemplate[]): string {
  return textTable(
    ['ID', 'CREATED', 'NAME', 'SUBJECT'],
    templates.map((t) => [t.id, when(t.createdAt), t.name ?? '-', t.subject]),
  );
}
