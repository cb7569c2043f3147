import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { isSecretToken, newSecretToken, secretTokenHash } from './secret-token.js';

/** How long a session lives. */
export interface SessionLifetimes {
  /** Ended after this long without a request. */
  idleMs: number;
  /** Ended this long after log-in, however active. */
  absoluteMs: number;
}

/** config.dashboard's defaults: a working day idle, two weeks at most. */
export const DEFAULT_SESSION_LIFETIMES: SessionLifetimes = {
  idleMs: 12 * 60 * 60 * 1000,
  absoluteMs: 14 * 24 * 60 * 60 * 1000,
};

/** A session as a request sees it: who is logged in and in which company. */
export interface Session {
  id: string;
  loginId: string;
  email: string;
  name: string;
  language: 'da' | 'en' | null;
  /** The membership it works in; null when the login is a member of no company (any more). */
  user: { id: string; companyId: string; companyName: string; admin: boolean } | null;
  /** Passed the password but not yet the TOTP code. */
  secondFactorDue: boolean;
  totpEnabled: boolean;
  createdAt: Date;
  expiresAt: Date;
}

export interface NewSession {
  loginId: string;
  /** The membership to work in; the login's first (by company name) when absent. */
  userId?: string;
  secondFactorDue?: boolean;
  ip?: string;
  userAgent?: string;
}

/** A request's last_seen_at is written at most this often: reading a page is not a write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The dashboard's sessions in PostgreSQL: a random token in the browser's cookie, its SHA-256
 * in `login_sessions`. Every server reads the same table, so a log-out or a password change ends
 * a session everywhere at once. A session ends after `idleMs` without a request and `absoluteMs`
 * after it began, whichever is first; an ended session's row is removed when it is next read.
 */
export class SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lifetimes: SessionLifetimes = DEFAULT_SESSION_LIFETIMES,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Starts a session; answers its token, for the cookie only (it is stored nowhere). */
  async create(input: NewSession): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecretToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.lifetimes.absoluteMs);
    const userId = input.userId ?? (await this.firstMembership(input.loginId));
    await this.db
      .insertInto('login_sessions')
      .values({
        token_hash: secretTokenHash(token),
        login_id: input.loginId,
        user_id: userId ?? null,
        second_factor_due: input.secondFactorDue ?? false,
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt,
        ip: input.ip ?? null,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The live session of `token`, or undefined (absent, malformed, idle too long or too old). */
  async read(token: unknown): Promise<Session | undefined> {
    if (!isSecretToken(token)) return undefined;
    const row = await this.db
      .selectFrom('login_sessions as s')
      .innerJoin('logins as l', 'l.id', 's.login_id')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('companies as c', 'c.id', 'u.company_id')
      .select([
        's.id',
        's.login_id',
        's.user_id',
        's.second_factor_due',
        's.created_at',
        's.last_seen_at',
        's.expires_at',
        'l.email',
        'l.name',
        'l.language',
        'l.totp_enabled_at',
        'u.company_id',
        'u.admin',
        'c.name as company_name',
        'c.disabled as company_disabled',
      ])
      .where('s.token_hash', '=', secretTokenHash(token))
      .executeTakeFirst();
    if (!row) return undefined;
    const now = this.now().getTime();
    if (
      row.expires_at.getTime() <= now ||
      row.last_seen_at.getTime() + this.lifetimes.idleMs <= now
    ) {
      await this.db.deleteFrom('login_sessions').where('id', '=', row.id).execute();
      return undefined;
    }
    if (row.last_seen_at.getTime() + TOUCH_EVERY_MS <= now)
      await this.db
        .updateTable('login_sessions')
        .set({ last_seen_at: new Date(now) })
        .where('id', '=', row.id)
        .execute();
    const member =
      row.user_id !== null && row.company_id !== null && row.company_disabled === false;
    return {
      id: row.id,
      loginId: row.login_id,
      email: row.email,
      name: row.name,
      language: row.language,
      user: member
        ? {
            id: row.user_id!,
            companyId: row.company_id!,
            companyName: row.company_name ?? row.company_id!,
            admin: row.admin === true,
          }
        : null,
      secondFactorDue: row.second_factor_due,
      totpEnabled: row.totp_enabled_at !== null,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  /** Moves a session to another of its login's memberships; false when it is not one. */
  async switchTo(sessionId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('login_sessions as s')
      .set({ user_id: userId })
      .where('s.id', '=', sessionId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('users as u')
            .select('u.id')
            .where('u.id', '=', userId)
            .whereRef('u.login_id', '=', 's.login_id'),
        ),
      )
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** The second factor was given: the session opens the dashboard now. */
  async secondFactorPassed(sessionId: string): Promise<void> {
    await this.db
      .updateTable('login_sessions')
      .set({ second_factor_due: false })
      .where('id', '=', sessionId)
      .execute();
  }

  /** Log-out: the session ends on every server at once. */
  async end(sessionId: string): Promise<void> {
    await this.db.deleteFrom('login_sessions').where('id', '=', sessionId).execute();
  }

  /** A password change or reset: every session of the login ends (but `keep`, the one asking). */
  async endAllOf(loginId: string, keep?: string): Promise<number> {
    let query = this.db.deleteFrom('login_sessions').where('login_id', '=', loginId);
    if (keep !== undefined) query = query.where('id', '!=', keep);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async firstMembership(loginId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users as u')
      .innerJoin('companies as c', 'c.id', 'u.company_id')
      .select('u.id')
      .where('u.login_id', '=', loginId)
      .where('c.disabled', '=', false)
      .orderBy('c.name')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }
}
