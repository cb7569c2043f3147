import type { Kysely } from 'kysely';
import { readJson } from '../../../base/files/index.js';
import type { Database } from '../../../service/db/index.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { withRecordsDatabase } from './records-database.js';

/**
 * The `add` and `list` of the records a company keeps (presets, message templates, users,
 * folders): the same flags, the same JSON or text output, the same way to an empty list's hint.
 */

/**
 * `docpipe <records> add --company <id> <file.json>`: the record in the file, added to the
 * company; `said` is the line a person reads.
 */
export async function addRecordFromFile<T>(
  file: string,
  flags: { company: string; json?: boolean },
  add: (db: Kysely<Database>, company: string, data: unknown) => Promise<T>,
  said: (record: T, company: string) => string,
): Promise<void> {
  const company = companyFlag(flags.company)!;
  // Read before the database is looked for: an unreadable file or bad JSON is named first.
  const data = await readJson(file);
  await withRecordsDatabase({ json: flags.json, file }, async (db) => {
    const record = await add(db, company, data);
    if (flags.json) printJson(record);
    else process.stdout.write(`${said(record, company)}\n`);
  });
}

/**
 * `docpipe <records> list --company <id>`: JSON, or a table; when there are none, `none` (how to
 * add one, given the company) on stderr instead of an empty table.
 */
export async function listRecords<T>(
  flags: { company: string; json?: boolean },
  list: (db: Kysely<Database>, company: string) => Promise<T[]>,
  table: (records: T[]) => string,
  none?: (company: string) => string,
): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const records = await list(db, company);
    if (flags.json) printJson(records);
    else if (records.length === 0 && none) process.stderr.write(`docpipe: ${none(company)}\n`);
    else process.stdout.write(table(records));
  });
}
