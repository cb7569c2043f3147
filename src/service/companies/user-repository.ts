import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../db/index.js';
import { companyMissing, requireCompany } from './company-scope.js';
import { foreignKeyViolation, uniqueViolation } from './pg-violation.js';
import {
  RecordExistsError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from './record-errors.js';
import { collect, emailProblem, nameProblem } from './record-fields.js';
import { LastAdminError } from './last-admin-error.js';
import type { CompanyMember, User } from './records.js';

/** What `users add` takes. */
export interface NewUser {
  email: string;
  name: string;
  admin?: boolean;
}

/** What `remove` and `setAdmin` may be asked to keep. */
export interface KeepAnAdmin {
  /**
   * Refuse (LastAdminError) a change that would leave the company without an admin: the
   * dashboard's rule, since only an admin can manage members there. @defaultValue false
   */
  keepAnAdmin?: boolean;
}

/**
 * A company's users: the senders of its cases and the owners of its API keys. An e-mail address
 * is one member of a company whatever its case (`Ann@Acme.example` is `ann@acme.example`); the
 * same address may be a member of other companies too. Every query names the company.
 */
export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a member; RecordExistsError when the address is one already, in any case. */
  async add(company: string, input: NewUser): Promise<User> {
    const problems: RecordProblem[] = [];
    collect(problems, 'email', emailProblem(input.email));
    collect(problems, 'name', nameProblem(input.name));
    refuseProblems('user', problems);
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          company_id: company,
          email: input.email,
          name: input.name,
          admin: input.admin ?? false,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return userOf(row);
    } catch (err) {
      if (uniqueViolation(err) === 'users_company_email')
        throw new RecordExistsError('user', input.email, company);
      if (companyMissing(foreignKeyViolation(err)))
        throw new RecordNotFoundError('company', company);
      throw err;
    }
  }

  /** The company's members, by e-mail address. */
  async list(company: string): Promise<User[]> {
    await requireCompany(this.db, company);
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy((eb) => eb.fn('lower', ['email']))
      .execute();
    return rows.map(userOf);
  }

  /** The company's members with whether each has taken their invitation (has a login). */
  async listMembers(company: string): Promise<CompanyMember[]> {
    await requireCompany(this.db, company);
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy((eb) => eb.fn('lower', ['email']))
      .execute();
    return rows.map((row) => ({ ...userOf(row), invitationTaken: row.login_id !== null }));
  }

  /** The member with this address (whatever its case), or undefined. */
  async findByEmail(company: string, email: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', company)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    return row && userOf(row);
  }

  /** The member with this id, or undefined (also for another company's user). */
  async findById(company: string, id: string): Promise<User | undefined> {
    // users.id is a uuid: anything else would be an error of PostgreSQL's, not an absent user.
    if (!UUID.test(id)) return undefined;
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && userOf(row);
  }

  /**
   * Removes the member. Its API keys stay and act for no user (`key-has-no-user`) until they
   * are revoked. RecordNotFoundError for an unknown company or an address that is no member;
   * with `keepAnAdmin`, LastAdminError for the company's last admin.
   */
  async remove(company: string, email: string, options: KeepAnAdmin = {}): Promise<User> {
    const row = await this.db.transaction().execute(async (tx) => {
      if (options.keepAnAdmin) await refuseLastAdmin(tx, company, email);
      return tx
        .deleteFrom('users')
        .where('company_id', '=', company)
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .returningAll()
        .executeTakeFirst();
    });
    if (row) return userOf(row);
    await requireCompany(this.db, company);
    throw new RecordNotFoundError('user', email, company);
  }

  /**
   * Makes the member an admin or a member; RecordNotFoundError when the id is no member of the
   * company, LastAdminError (with `keepAnAdmin`) when it would demote the last admin.
   */
  async setAdmin(
    company: string,
    id: string,
    admin: boolean,
    options: KeepAnAdmin = {},
  ): Promise<User> {
    const user = await this.findById(company, id);
    if (!user) throw new RecordNotFoundError('user', id, company);
    const row = await this.db.transaction().execute(async (tx) => {
      if (!admin && options.keepAnAdmin) await refuseLastAdmin(tx, company, user.email);
      return tx
        .updateTable('users')
        .set({ admin })
        .where('company_id', '=', company)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    });
    if (!row) throw new RecordNotFoundError('user', id, company);
    return userOf(row);
  }
}

/**
 * Throws LastAdminError when `email` is the company's only admin. The company's admin rows are
 * locked first (FOR UPDATE), so that two admins demoting or removing each other at once are
 * judged one after the other: the second sees the first's change and is refused.
 */
async function refuseLastAdmin(
  tx: Kysely<Database>,
  company: string,
  email: string,
): Promise<void> {
  const admins = await tx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('company_id', '=', company)
    .where('admin', '=', true)
    .forUpdate()
    .execute();
  const target = email.toLowerCase();
  if (admins.length === 1 && admins[0]!.email.toLowerCase() === target)
    throw new LastAdminError(company, admins[0]!.email);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function userOf(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    company: row.company_id,
    email: row.email,
    name: row.name,
    admin: row.admin,
    createdAt: row.created_at,
  };
}
