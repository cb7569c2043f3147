import type { Kysely, Selectable } from 'kysely';
import type { CompaniesTable, Database } from '../db/index.js';
import { companyIdProblem } from '../tenancy/index.js';
import {
  RecordExistsError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from './record-errors.js';
import { collect, languageOf, nameProblem, signingDomainProblem } from './record-fields.js';
import { uniqueViolation } from './pg-violation.js';
import { DEFAULT_FOLDER_NAME, folderOf } from './folder-repository.js';
import type { Company, Folder } from './records.js';

/** What `companies create` takes. */
export interface NewCompany {
  id: string;
  name: string;
  signingDomain?: string;
  /** A language tag docpipe formats for (`da`, `en`, `en-GB`); stored in its canonical form. */
  defaultLanguage?: string;
  /** Whether the sender of a case gets its signed copy too (default true). */
  sendSignedCopyToSender?: boolean;
}

/** What `companies set` changes; a member left out stays as it is. */
export interface CompanySettings {
  sendSignedCopyToSender?: boolean;
}

/** A company's disabled flag set: whether it changed, so the CLI can say it already was. */
export interface DisabledOutcome {
  company: Company;
  changed: boolean;
}

/**
 * The companies: the operator's own list, the one table not scoped by a company (it is the
 * scope). Creating a company makes its default folder in the same transaction, so that no
 * company is ever without one.
 */
export class CompanyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates the company and its default folder; RecordExistsError when the id is taken. */
  async create(input: NewCompany): Promise<{ company: Company; defaultFolder: Folder }> {
    const problems: RecordProblem[] = [];
    collect(problems, 'id', companyIdProblem(input.id));
    collect(problems, 'name', nameProblem(input.name));
    if (input.signingDomain !== undefined)
      collect(problems, 'signingDomain', signingDomainProblem(input.signingDomain));
    let language: string | null = null;
    if (input.defaultLanguage !== undefined) {
      const found = languageOf(input.defaultLanguage);
      if ('problem' in found) problems.push({ path: 'defaultLanguage', message: found.problem });
      else language = found.tag;
    }
    refuseProblems('company', problems);
    try {
      return await this.db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('companies')
          .values({
            id: input.id,
            name: input.name,
            signing_domain: input.signingDomain?.toLowerCase() ?? null,
            default_language: language,
            ...(input.sendSignedCopyToSender === undefined
              ? {}
              : { send_signed_copy_to_sender: input.sendSignedCopyToSender }),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const folder = await tx
          .insertInto('folders')
          .values({ company_id: input.id, name: DEFAULT_FOLDER_NAME, is_default: true })
          .returningAll()
          .executeTakeFirstOrThrow();
        return {
          company: companyOf(row),
          defaultFolder: folderOf(folder),
        };
      });
    } catch (err) {
      if (uniqueViolation(err) === 'companies_pkey')
        throw new RecordExistsError('company', input.id);
      throw err;
    }
  }

  /** Every company, by id. */
  async list(): Promise<Company[]> {
    const rows = await this.db.selectFrom('companies').selectAll().orderBy('id').execute();
    return rows.map(companyOf);
  }

  /** The company, or undefined when there is none with that id. */
  async find(id: string): Promise<Company | undefined> {
    const row = await this.db
      .selectFrom('companies')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && companyOf(row);
  }

  /** The company, or RecordNotFoundError. */
  async get(id: string): Promise<Company> {
    const found = await this.find(id);
    if (!found) throw new RecordNotFoundError('company', id);
    return found;
  }

  /**
   * Disables or enables the company. A disabled company keeps its records; its keys are
   * refused (`company-disabled`) until it is enabled again.
   */
  async setDisabled(id: string, disabled: boolean): Promise<DisabledOutcome> {
    // Only a row whose flag differs is updated, so the outcome tells a change from a repeat.
    const changed = await this.db
      .updateTable('companies')
      .set({ disabled })
      .where('id', '=', id)
      .where('disabled', '=', !disabled)
      .returningAll()
      .executeTakeFirst();
    if (changed) return { company: companyOf(changed), changed: true };
    return { company: await this.get(id), changed: false };
  }

  /** Changes the company's settings; RecordNotFoundError when there is no such company. */
  async setSettings(id: string, settings: CompanySettings): Promise<Company> {
    if (settings.sendSignedCopyToSender === undefined) return this.get(id);
    const row = await this.db
      .updateTable('companies')
      .set({ send_signed_copy_to_sender: settings.sendSignedCopyToSender })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('company', id);
    return companyOf(row);
  }
}

export function companyOf(row: Selectable<CompaniesTable>): Company {
  return {
    id: row.id,
    name: row.name,
    disabled: row.disabled,
    signingDomain: row.signing_domain,
    defaultLanguage: row.default_language,
    sendSignedCopyToSender: row.send_signed_copy_to_sender,
    createdAt: row.created_at,
  };
}
