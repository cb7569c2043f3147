import type { Kysely, Selectable } from 'kysely';
import type { CompaniesTable, Database } from '../db/index.js';
import { companyIdProblem } from '../tenancy/index.js';
import {
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from './record-errors.js';
import { collect, languageOf, nameProblem, signingDomainProblem } from './record-fields.js';
import { uniqueViolation } from './pg-violation.js';
import { DEFAULT_FOLDER_NAME, folderOf } from './folder-repository.js';
import type { Company, Folder } from './records.js';
import { logoTypeOf, type LogoType } from './company-logo.js';

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

/** What `companies set` and the dashboard's settings change; a member left out stays as it is. */
export interface CompanySettings {
  name?: string;
  /** A language tag (`da`, `en`), stored in its canonical form; null: none (then Danish). */
  defaultLanguage?: string | null;
  /** The host of its signing pages; null: the service's own. */
  signingDomain?: string | null;
  sendSignedCopyToSender?: boolean;
}

/** A company's logo as stored: its bytes and their media type (by their signature). */
export interface CompanyLogo {
  bytes: Buffer;
  type: LogoType;
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

  /**
   * Changes the company's settings, each checked as `create` checks it (RecordInvalidError
   * with every problem); RecordNotFoundError when there is no such company.
   */
  async setSettings(id: string, settings: CompanySettings): Promise<Company> {
    const problems: RecordProblem[] = [];
    const changes: {
      name?: string;
      default_language?: string | null;
      signing_domain?: string | null;
      send_signed_copy_to_sender?: boolean;
    } = {};
    if (settings.name !== undefined) {
      collect(problems, 'name', nameProblem(settings.name));
      changes.name = settings.name;
    }
    if (settings.defaultLanguage === null) changes.default_language = null;
    else if (settings.defaultLanguage !== undefined) {
      const found = languageOf(settings.defaultLanguage);
      if ('problem' in found) problems.push({ path: 'defaultLanguage', message: found.problem });
      else changes.default_language = found.tag;
    }
    if (settings.signingDomain === null) changes.signing_domain = null;
    else if (settings.signingDomain !== undefined) {
      collect(problems, 'signingDomain', signingDomainProblem(settings.signingDomain));
      changes.signing_domain = settings.signingDomain.toLowerCase();
    }
    if (settings.sendSignedCopyToSender !== undefined)
      changes.send_signed_copy_to_sender = settings.sendSignedCopyToSender;
    refuseProblems('company', problems);
    if (Object.keys(changes).length === 0) return this.get(id);
    const row = await this.db
      .updateTable('companies')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('company', id);
    return companyOf(row);
  }

  /**
   * Stores the company's logo: a PNG or a JPEG by its bytes (company-logo.ts), else
   * RecordInvalidError at `logo` saying why; RecordNotFoundError when there is no such company.
   */
  async setLogo(id: string, bytes: Buffer): Promise<LogoType> {
    const found = logoTypeOf(bytes);
    if ('problem' in found)
      throw new RecordInvalidError('company', [{ path: 'logo', message: found.problem }]);
    const { type } = found;
    const row = await this.db
      .updateTable('companies')
      .set({ logo: bytes, logo_type: type })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('company', id);
    return type;
  }

  /** Removes the company's logo; RecordNotFoundError when there is no such company. */
  async removeLogo(id: string): Promise<void> {
    const row = await this.db
      .updateTable('companies')
      .set({ logo: null, logo_type: null })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('company', id);
  }

  /** The company's logo, or undefined when it has none (or there is no such company). */
  async logo(id: string): Promise<CompanyLogo | undefined> {
    const row = await this.db
      .selectFrom('companies')
      .select(['logo', 'logo_type'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.logo && row.logo_type ? { bytes: row.logo, type: row.logo_type } : undefined;
  }

  /** The media type of the company's logo, without its bytes; undefined when it has none. */
  async logoType(id: string): Promise<LogoType | undefined> {
    const row = await this.db
      .selectFrom('companies')
      .select('logo_type')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.logo_type ?? undefined;
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
