import {
  MessageTemplateRepository,
  type MessageTemplate,
} from '../../../service/companies/index.js';
import { addRecordFromFile, listRecords } from './company-records.js';
import { textTable, when } from './text-table.js';

/** `docpipe message-templates add`, declared in commands/message-templates.ts. */
export function addMessageTemplate(
  file: string,
  flags: { company: string; json?: boolean },
): Promise<void> {
  return addRecordFromFile(
    file,
    flags,
    (db, company, data) => new MessageTemplateRepository(db).add(company, data),
    (template, company) =>
      `added message template ${template.id} to company ${company}: ${JSON.stringify(template.subject)}`,
  );
}

/** `docpipe message-templates list`, declared in commands/message-templates.ts. */
export function listMessageTemplates(flags: { company: string; json?: boolean }): Promise<void> {
  return listRecords(
    flags,
    (db, company) => new MessageTemplateRepository(db).list(company),
    table,
    (company) =>
      `company ${company} has no message templates; add one with: ` +
      `docpipe message-templates add --company ${company} <file.json>`,
  );
}

function table(templates: MessageTemplate[]): string {
  return textTable(
    ['ID', 'CREATED', 'NAME', 'SUBJECT'],
    templates.map((t) => [t.id, when(t.createdAt), t.name ?? '-', t.subject]),
  );
}
