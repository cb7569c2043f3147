import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/**
 * Recovery codes: what opens a login whose authenticator is lost. Ten at a time, shown once,
 * stored as SHA-256 only (each is 50 random bits: no slow hash needed against a copy of the
 * database, and the second factor is tried only after the password), each good once.
 */
export const RECOVERY_CODE_COUNT = 10;
/** Without 0/o, 1/l/i: read from paper and typed again without doubt. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

/** `xxxxx-xxxxx`, from the system's CSPRNG. */
export function newRecoveryCode(): string {
  let text = '';
  for (let i = 0; i < GROUP * 2; i += 1) text += ALPHABET[randomInt(ALPHABET.length)];
  return `${text.slice(0, GROUP)}-${text.slice(GROUP)}`;
}

/** The code as typed, without case, spaces or dashes; undefined when it cannot be one. */
export function normalRecoveryCode(typed: string): string | undefined {
  const text = typed.toLowerCase().replace(/[\s-]+/g, '');
  return text.length === GROUP * 2 && [...text].every((c) => ALPHABET.includes(c))
    ? text
    : undefined;
}

export function recoveryCodeHash(code: string): Buffer {
  return createHash('sha256')
    .update(normalRecoveryCode(code) ?? code, 'utf8')
    .digest();
}

/** A login's recovery codes replaced by ten new ones, answered once (in plain text) here. */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  loginId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('recovery_codes').where('login_id', '=', loginId).execute();
    await tx
      .insertInto('recovery_codes')
      .values(codes.map((code) => ({ login_id: loginId, code_hash: recoveryCodeHash(code) })))
      .execute();
  });
  return codes;
}

/**
 * Uses `typed` when it is one of the login's unused codes; false otherwise. One statement: two
 * requests with the same code at once cannot both take it.
 */
export async function useRecoveryCode(
  db: Kysely<Database>,
  loginId: string,
  typed: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (normalRecoveryCode(typed) === undefined) return false;
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('login_id', '=', loginId)
    .where('code_hash', '=', recoveryCodeHash(typed))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** How many of the login's codes are still unused. */
export async function recoveryCodesLeft(db: Kysely<Database>, loginId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('login_id', '=', loginId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
