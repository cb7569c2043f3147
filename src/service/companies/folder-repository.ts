import type { Kysely, Selectable } from 'kysely';
import type { Database, FoldersTable } from '../db/index.js';
import { companyMissing, requireCompany } from './company-scope.js';
import { foreignKeyViolation, uniqueViolation } from './pg-violation.js';
import { RecordExistsError, RecordNotFoundError, refuseProblems } from './record-errors.js';
import { collect, nameProblem } from './record-fields.js';
import type { Folder } from './records.js';

/** The folder every company gets when it is created. */
export const DEFAULT_FOLDER_NAME = 'Default';

/**
 * A company's folders: where its cases are filed. Names are unique in the company; ids are made
 * by the database (a UUID). Every query names the company.
 */
export class FolderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a folder; RecordExistsError when the company has one of that name. */
  async add(company: string, name: string): Promise<Folder> {
    const problems: { path: string; message: string }[] = [];
    collect(problems, 'name', nameProblem(name));
    refuseProblems('folder', problems);
    try {
      const row = await this.db
        .insertInto('folders')
        .values({ company_id: company, name })
        .returningAll()
        .executeTakeFirstOrThrow();
      return folderOf(row);
    } catch (err) {
      if (uniqueViolation(err) === 'folders_company_name')
        throw new RecordExistsError('folder', JSON.stringify(name), company);
      if (companyMissing(foreignKeyViolation(err)))
        throw new RecordNotFoundError('company', company);
      throw err;
    }
  }

  /** The company's folders, the default first, then by name. */
  async list(company: string): Promise<Folder[]> {
    await requireCompany(this.db, company);
    const rows = await this.db
      .selectFrom('folders')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .execute();
    return rows.map(folderOf);
  }

  /** The company's folder by id, else by name (v3's `folder` takes either); undefined if none. */
  async find(company: string, idOrName: string): Promise<Folder | undefined> {
    const rows = await this.db
      .selectFrom('folders')
      .selectAll()
      .where('company_id', '=', company)
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .execute();
    // An id wins over another folder's name that happens to equal it.
    const row = rows.find((r) => r.id === idOrName) ?? rows[0];
    return row && folderOf(row);
  }

  /** The company's default folder; RecordNotFoundError when the company does not exist. */
  async defaultFolder(company: string): Promise<Folder> {
    const row = await this.db
      .selectFrom('folders')
      .selectAll()
      .where('company_id', '=', company)
      .where('is_default', '=', true)
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('company', company);
    return folderOf(row);
  }
}

export function folderOf(row: Selectable<FoldersTable>): Folder {
  return {
    id: row.id,
    company: row.company_id,
    name: row.name,
    isDefault: row.is_default,
    createdAt: row.created_at,
  };
}
