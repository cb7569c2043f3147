import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { isSecretToken, newSecretToken, secretTokenHash } from './secret-token.js';

/** What a link sent by e-mail is for. */
export type LinkPurpose = 'confirm' | 'reset' | 'invite';

/**
 * How long each link works: a reset link is a password in the mail box, so it lives an hour;
 * an invitation and an address's confirmation wait a week for a person back from holiday.
 */
export const LINK_LIFETIMES_MS: Record<LinkPurpose, number> = {
  confirm: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  invite: 7 * 24 * 60 * 60 * 1000,
};

/** A link's row, as the page that opens it needs it. */
export interface LoginLink {
  purpose: LinkPurpose;
  loginId: string | null;
  userId: string | null;
  email: string;
  expiresAt: Date;
}

/** What became of a link: it works, or why it does not (absent, used once already, too old). */
export type LinkState =
  { state: 'valid'; link: LoginLink } | { state: 'used' | 'expired' | 'unknown' };

type Db = Kysely<Database>;

/**
 * The links of `login_links`: a random token in the e-mail, its SHA-256 in the table, used
 * once (`used_at` is set in the same statement that checks it is not, so that two clicks cannot
 * both take it) and only before its expiry.
 */
export class LoginLinks {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Makes a link; answers its token (for the e-mail only: it is stored nowhere). */
  async issue(
    purpose: LinkPurpose,
    target: { email: string; loginId?: string | null; userId?: string | null },
  ): Promise<string> {
    const token = newSecretToken();
    const now = this.now();
    await this.db
      .insertInto('login_links')
      .values({
        token_hash: secretTokenHash(token),
        purpose,
        login_id: target.loginId ?? null,
        user_id: target.userId ?? null,
        email: target.email,
        created_at: now,
        expires_at: new Date(now.getTime() + LINK_LIFETIMES_MS[purpose]),
      })
      .execute();
    return token;
  }

  /** Whether the link of `token` would work, without using it (a page's GET). */
  async peek(token: unknown, purpose: LinkPurpose): Promise<LinkState> {
    if (!isSecretToken(token)) return { state: 'unknown' };
    const row = await this.db
      .selectFrom('login_links')
      .selectAll()
      .where('token_hash', '=', secretTokenHash(token))
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) return { state: 'unknown' };
    if (row.used_at !== null) return { state: 'used' };
    if (row.expires_at.getTime() <= this.now().getTime()) return { state: 'expired' };
    return { state: 'valid', link: linkOf(row) };
  }

  /** Uses the link of `token`: answers it once, and why not to every other try. */
  async take(token: unknown, purpose: LinkPurpose): Promise<LinkState> {
    if (!isSecretToken(token)) return { state: 'unknown' };
    const now = this.now();
    const row = await this.db
      .updateTable('login_links')
      .set({ used_at: now })
      .where('token_hash', '=', secretTokenHash(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    if (row) return { state: 'valid', link: linkOf(row) };
    const seen = await this.peek(token, purpose);
    // Taken between the update and the look by another click: used, as far as this one goes.
    return seen.state === 'valid' ? { state: 'used' } : seen;
  }

  /** Ends a login's unused links of `purpose` (a new reset link makes the older ones useless). */
  async revoke(purpose: LinkPurpose, loginId: string): Promise<void> {
    await this.db
      .updateTable('login_links')
      .set({ used_at: this.now() })
      .where('purpose', '=', purpose)
      .where('login_id', '=', loginId)
      .where('used_at', 'is', null)
      .execute();
  }
}

function linkOf(row: {
  purpose: LinkPurpose;
  login_id: string | null;
  user_id: string | null;
  email: string;
  expires_at: Date;
}): LoginLink {
  return {
    purpose: row.purpose,
    loginId: row.login_id,
    userId: row.user_id,
    email: row.email,
    expiresAt: row.expires_at,
  };
}
