import { verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import { checkTotp, newTotpSecret } from './totp.js';
import { TotpSecretDecryptError, type TotpCipher } from './totp-cipher.js';

/**
 * A login's two-factor log-in: turning it on (a secret kept encrypted, then confirmed with a
 * first code), the second factor at log-in (a TOTP code or a recovery code), and turning it off.
 * The dashboard's pages call these; each names the login it is about, never another.
 */
export interface TotpStatus {
  enabledAt: Date | null;
  /** A secret made and not yet confirmed: the set-up page shows it. */
  pending: boolean;
  recoveryCodesLeft: number;
  /** Whether the login has a password (an SSO-only login turns TOTP off with a code). */
  hasPassword: boolean;
}

/** What a second factor given at log-in was. */
export type SecondFactorOutcome = 'totp' | 'recovery-code' | 'wrong' | 'replayed';

type Db = Kysely<Database>;

export class TotpLogins {
  constructor(
    private readonly db: Db,
    private readonly cipher: TotpCipher,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async status(loginId: string): Promise<TotpStatus | undefined> {
    const row = await this.db
      .selectFrom('logins')
      .select(['totp_secret', 'totp_enabled_at', 'password_hash'])
      .where('id', '=', loginId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      enabledAt: row.totp_enabled_at,
      pending: row.totp_enabled_at === null && row.totp_secret !== null,
      recoveryCodesLeft:
        row.totp_enabled_at === null ? 0 : await recoveryCodesLeft(this.db, loginId),
      hasPassword: row.password_hash !== null,
    };
  }

  /**
   * Makes a new secret for a login that has two-factor log-in off, keeping it (encrypted) until
   * the first code confirms it; false when it is on already (turn it off first).
   */
  async begin(loginId: string): Promise<boolean> {
    const secret = newTotpSecret();
    const result = await this.db
      .updateTable('logins')
      .set({ totp_secret: this.cipher.encrypt(secret, loginId), totp_last_step: null })
      .where('id', '=', loginId)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** The secret being set up, for its QR code; undefined when none is (or it is on already). */
  async pendingSecret(loginId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('logins')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('id', '=', loginId)
      .executeTakeFirst();
    if (!row || row.totp_enabled_at !== null || row.totp_secret === null) return undefined;
    return this.secretOf(row.totp_secret, loginId);
  }

  /**
   * The stored secret decrypted; undefined when it no longer decrypts (the signing secret it
   * was derived from changed): its codes then match nothing, and the person logs in with a
   * recovery code (or sets it up again), rather than meeting an error page.
   */
  private secretOf(stored: string, loginId: string): string | undefined {
    try {
      return this.cipher.decrypt(stored, loginId);
    } catch (err) {
      if (err instanceof TotpSecretDecryptError) return undefined;
      throw err;
    }
  }

  /**
   * Turns two-factor log-in on when `code` is the pending secret's: answers the ten recovery
   * codes (to show once), 'wrong', or 'none' when no set-up is under way.
   */
  async confirm(loginId: string, code: string): Promise<string[] | 'wrong' | 'none'> {
    const secret = await this.pendingSecret(loginId);
    if (secret === undefined) return 'none';
    const check = checkTotp(secret, code, this.now().getTime(), null);
    if (!check.ok) return 'wrong';
    const result = await this.db
      .updateTable('logins')
      .set({ totp_enabled_at: this.now(), totp_last_step: check.step })
      .where('id', '=', loginId)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return 'none';
    return replaceRecoveryCodes(this.db, loginId);
  }

  /**
   * The second factor: a TOTP code (of a step after the last one used; taken in one statement,
   * so that two requests with one code cannot both pass) or one of the unused recovery codes.
   */
  async verify(loginId: string, typed: string): Promise<SecondFactorOutcome> {
    const row = await this.db
      .selectFrom('logins')
      .select(['totp_secret', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', loginId)
      .executeTakeFirst();
    if (!row || row.totp_enabled_at === null || row.totp_secret === null) return 'wrong';
    const code = typed.trim();
    if (/^[\d\s]+$/.test(code)) {
      const secret = this.secretOf(row.totp_secret, loginId);
      if (secret === undefined) return 'wrong';
      const check = checkTotp(secret, code, this.now().getTime(), row.totp_last_step);
      if (!check.ok) return check.reason;
      const taken = await this.db
        .updateTable('logins')
        .set({ totp_last_step: check.step })
        .where('id', '=', loginId)
        .where((eb) =>
          eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', check.step)]),
        )
        .executeTakeFirst();
      return taken.numUpdatedRows === 1n ? 'totp' : 'replayed';
    }
    return (await useRecoveryCode(this.db, loginId, code, this.now())) ? 'recovery-code' : 'wrong';
  }

  /**
   * Turns two-factor log-in off, when `proof` is a current code or the login's password; the
   * secret and the recovery codes go with it. False: the proof is neither.
   */
  async disable(loginId: string, proof: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('logins')
      .select(['password_hash', 'totp_enabled_at'])
      .where('id', '=', loginId)
      .executeTakeFirst();
    if (!row || row.totp_enabled_at === null) return false;
    const given = /^\s*\d{6}\s*$/.test(proof) ? await this.verify(loginId, proof) : 'wrong';
    const passed =
      given === 'totp' ||
      (row.password_hash !== null && (await passwordMatches(row.password_hash, proof)));
    if (!passed) return false;
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('logins')
        .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
        .where('id', '=', loginId)
        .execute();
      await tx.deleteFrom('recovery_codes').where('login_id', '=', loginId).execute();
    });
    return true;
  }

  /** New recovery codes for a login with two-factor log-in on (the old ones stop working). */
  async regenerateRecoveryCodes(loginId: string): Promise<string[] | undefined> {
    const status = await this.status(loginId);
    if (!status?.enabledAt) return undefined;
    return replaceRecoveryCodes(this.db, loginId);
  }
}

/** The log-in's own check (argon2id, the PHC string's parameters); a malformed hash is no match. */
async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
