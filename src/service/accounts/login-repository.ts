import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';

/** A person who logs in, as the account pages need them. */
export interface Login {
  id: string;
  email: string;
  name: string;
  /** argon2id PHC string; null for a login that has not chosen a password (yet). */
  passwordHash: string | null;
  emailConfirmedAt: Date | null;
  language: 'da' | 'en' | null;
  totpEnabled: boolean;
  createdAt: Date;
}

export interface NewLogin {
  email: string;
  name: string;
  passwordHash: string | null;
  language?: 'da' | 'en' | null;
  /** When the address was shown to be theirs (an invitation's link proves it). */
  emailConfirmedAt?: Date | null;
}

type Db = Kysely<Database>;

/**
 * The logins: one per e-mail address in the installation, found whatever the address's case
 * (the unique index is on lower(email)). Takes a transaction as well as the database.
 */
export class LoginRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<Login | undefined> {
    const row = await this.db
      .selectFrom('logins')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .executeTakeFirst();
    return row && loginOf(row);
  }

  async findById(id: string): Promise<Login | undefined> {
    const row = await this.db
      .selectFrom('logins')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && loginOf(row);
  }

  /** Creates the login; a unique violation (`logins_email`) when the address has one. */
  async create(input: NewLogin): Promise<Login> {
    const row = await this.db
      .insertInto('logins')
      .values({
        email: input.email.trim(),
        name: input.name.trim(),
        password_hash: input.passwordHash,
        language: input.language ?? null,
        email_confirmed_at: input.emailConfirmedAt ?? null,
        password_changed_at: input.passwordHash === null ? null : new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return loginOf(row);
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('logins')
      .set({ password_hash: passwordHash, password_changed_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Marks the address confirmed (once: a later confirmation keeps the first time). */
  async confirmEmail(id: string): Promise<void> {
    await this.db
      .updateTable('logins')
      .set({ email_confirmed_at: new Date() })
      .where('id', '=', id)
      .where('email_confirmed_at', 'is', null)
      .execute();
  }

  async setProfile(id: string, profile: { name?: string; language?: 'da' | 'en' | null }) {
    if (profile.name === undefined && profile.language === undefined) return;
    await this.db
      .updateTable('logins')
      .set({
        ...(profile.name === undefined ? {} : { name: profile.name.trim() }),
        ...(profile.language === undefined ? {} : { language: profile.language }),
      })
      .where('id', '=', id)
      .execute();
  }
}

export function loginOf(row: Selectable<Database['logins']>): Login {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    emailConfirmedAt: row.email_confirmed_at,
    language: row.language,
    totpEnabled: row.totp_enabled_at !== null,
    createdAt: row.created_at,
  };
}
