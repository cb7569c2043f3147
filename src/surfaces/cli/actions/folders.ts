import { FolderRepository, type Folder } from '../../../service/companies/index.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { listRecords } from './company-records.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** `docpipe folders add`, declared in commands/folders.ts. */
export async function addFolder(
  name: string,
  flags: { company: string; json?: boolean },
): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json, fields: { name: '<name>' } }, async (db) => {
    const folder = await new FolderRepository(db).add(company, name);
    if (flags.json) printJson(folder);
    else
      process.stdout.write(
        `added folder ${JSON.stringify(folder.name)} (id ${folder.id}) to company ${company}\n`,
      );
  });
}

/** `docpipe folders list`, declared in commands/folders.ts. */
export function listFolders(flags: { company: string; json?: boolean }): Promise<void> {
  // Never empty: a company has its default folder from the start.
  return listRecords(flags, (db, company) => new FolderRepository(db).list(company), table);
}

function table(folders: Folder[]): string {
  return textTable(
    ['ID', 'DEFAULT', 'CREATED', 'NAME'],
    folders.map((f) => [f.id, f.isDefault ? 'yes' : 'no', when(f.createdAt), f.name]),
  );
}
