import type { Kysely, Selectable } from 'kysely';
import type { Database, FoldersTable } from '../db/index.js';
import { companyMissing, requireCompany } from './company-scope.js';
import { foreignKeyViolation, uniqueViolation } from './pg-violation.js';
import { RecordExistsError, RecordNotFoundError, refuseProblems } from './record-errors.js';
import { collect, nameProblem } from './record-fields.js';
import type { Folder } from './records.js';
import { FolderNotEmptyError } from './folder-not-empty-error.js';

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

  /**
   * Renames the company's folder `id`; RecordNotFoundError when it has none with that id (also
   * another company's), RecordExistsError when another of its folders has the name. Cases keep
   * their folder: they name it by id.
   */
  async rename(company: string, id: string, name: string): Promise<Folder> {
    const problems: { path: string; message: string }[] = [];
    collect(problems, 'name', nameProblem(name));
    refuseProblems('folder', problems);
    try {
      const row = await this.db
        .updateTable('folders')
        .set({ name })
        .where('company_id', '=', company)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new RecordNotFoundError('folder', id, company);
      return folderOf(row);
    } catch (err) {
      if (uniqueViolation(err) === 'folders_company_name')
        throw new RecordExistsError('folder', JSON.stringify(name), company);
      throw err;
    }
  }

  /**
   * Makes folder `id` the company's default (the one before stops being it) in one transaction,
   * so that the company always has exactly one; RecordNotFoundError when it has none with that id.
   */
  async setDefault(company: string, id: string): Promise<Folder> {
    return this.db.transaction().execute(async (tx) => {
      const target = await tx
        .selectFrom('folders')
        .select('id')
        .where('company_id', '=', company)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!target) throw new RecordNotFoundError('folder', id, company);
      await tx
        .updateTable('folders')
        .set({ is_default: false })
        .where('company_id', '=', company)
        .where('is_default', '=', true)
        .where('id', '!=', id)
        .execute();
      const row = await tx
        .updateTable('folders')
        .set({ is_default: true })
        .where('company_id', '=', company)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return folderOf(row);
    });
  }

  /**
   * Deletes the company's folder `id` when no case is filed in it and it is not the default
   * (FolderNotEmptyError says which); RecordNotFoundError when it has none with that id. The
   * cases' foreign key to their folder decides "empty", so a case filed at the same moment
   * wins over the delete.
   */
  async remove(company: string, id: string): Promise<Folder> {
    const found = await this.db
      .selectFrom('folders')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw new RecordNotFoundError('folder', id, company);
    if (found.is_default) throw new FolderNotEmptyError(company, found.name, 'is-default');
    try {
      const row = await this.db
        .deleteFrom('folders')
        .where('company_id', '=', company)
        .where('id', '=', id)
        .where('is_default', '=', false)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new RecordNotFoundError('folder', id, company);
      return folderOf(row);
    } catch (err) {
      if (foreignKeyViolation(err) === 'cases_folder_fk')
        throw new FolderNotEmptyError(company, found.name, 'has-cases');
      throw err;
    }
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
