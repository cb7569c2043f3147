import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { LocalStorage, type Storage } from '../../src/render/storage/index.js';
import type { Database } from '../../src/service/db/index.js';

/** The tables a case writes into, each row naming its company. */
export const CASE_TABLES = ['cases', 'recipients', 'case_documents', 'case_events'] as const;
type CaseTable = (typeof CASE_TABLES)[number];

/** Where a refused case could leave something, read through the parts the server writes to. */
export interface WrittenProbe {
  db: Kysely<Database>;
  storage: Storage;
  /** The company whose rows are counted: the one whose key made the refused request. */
  company: string;
}

/** What a case leaves behind: its company's rows, and every stored case document and render. */
export interface Footprint {
  rows: Record<CaseTable, number>;
  /** Every key under `cases/` (any company's: a refused case must not write another's either). */
  cases: string[];
  /**
   * Every render (`renders/`), markers aside: docs/cases.md promises that a refused case removes
   * the renders it alone made (a render another request was also given is kept, and was there
   * before).
   */
  renders: string[];
  /** Every input a queue client stored for a job (`uploads/`): a refused case removes its own. */
  inputs: string[];
  /**
   * Every folder under a local storage's root, `/`-terminated (none for another store): a
   * refused case leaves no empty case folder either.
   */
  folders: string[];
}

/** The folders under `root`, depth first, as relative paths ending in `/`. */
function foldersUnder(root: string, at = ''): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, at), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const folder = `${at}${e.name}/`;
      return [folder, ...foldersUnder(root, folder)];
    });
}

export async function footprint(probe: WrittenProbe): Promise<Footprint> {
  const rows = {} as Record<CaseTable, number>;
  for (const table of CASE_TABLES) {
    const row = await probe.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', probe.company)
      .executeTakeFirstOrThrow();
    rows[table] = Number(row.n);
  }
  const listed = async (prefix: string) => {
    const keys: string[] = [];
    for await (const o of probe.storage.list(prefix))
      if (!o.key.endsWith('.kept')) keys.push(o.key);
    return keys.sort();
  };
  return {
    rows,
    cases: await listed('cases/'),
    renders: await listed('renders/'),
    inputs: await listed('uploads/'),
    folders: probe.storage instanceof LocalStorage ? foldersUnder(probe.storage.root).sort() : [],
  };
}

/**
 * What differs between two footprints, one line per difference (`cases: 0 -> 1`,
 * `+ cases/61636d65/.../0.pdf`); empty when nothing does.
 */
export function footprintChanges(before: Footprint, after: Footprint): string[] {
  const changes: string[] = [];
  for (const table of CASE_TABLES)
    if (before.rows[table] !== after.rows[table])
      changes.push(`${table}: ${before.rows[table]} -> ${after.rows[table]}`);
  for (const part of ['cases', 'renders', 'inputs', 'folders'] as const) {
    const was = new Set(before[part]);
    const is = new Set(after[part]);
    for (const key of after[part]) if (!was.has(key)) changes.push(`+ ${key}`);
    for (const key of before[part]) if (!is.has(key)) changes.push(`- ${key}`);
  }
  return changes;
}

/**
 * Runs `act` (a refused request) and proves that it wrote nothing: the company's rows of every
 * case table, the storage listing under `cases/`, `renders/` and `uploads/`, and a local
 * storage's folders, are what they were before.
 * Throws, naming every difference, when anything changed; else returns what `act` returned.
 * Spec 4.4 rule 3: a 4xx means nothing was created.
 */
export async function expectNothingWritten<T>(
  probe: WrittenProbe,
  act: () => Promise<T>,
): Promise<T> {
  const before = await footprint(probe);
  const result = await act();
  const changes = footprintChanges(before, await footprint(probe));
  if (changes.length > 0)
    throw new Error(`the refused request wrote something:\n  ${changes.join('\n  ')}`);
  return result;
}
