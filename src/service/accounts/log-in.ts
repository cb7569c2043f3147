import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { LoginRepository, type Login } from './login-repository.js';
import { dummyPasswordHash, verifyPassword } from './password-hash.js';
import { MAX_PASSWORD_CHARS } from './password-policy.js';

/**
 * The log-in's password check: the login when `password` is its password, else undefined, the
 * same for an unknown address, a login without a password and a wrong password. Every call
 * runs exactly one argon2 verification (against a dummy hash when there is no stored one), so
 * that the time of the answer does not tell either.
 */
export async function checkPassword(
  db: Kysely<Database>,
  email: string,
  password: string,
): Promise<Login | undefined> {
  const login = await new LoginRepository(db).findByEmail(email);
  const stored = login?.passwordHash ?? (await dummyPasswordHash());
  // A password past the longest allowed was never set: checked anyway (the time), cut short.
  const matches = await verifyPassword(stored, password.slice(0, MAX_PASSWORD_CHARS * 4));
  return login?.passwordHash && matches ? login : undefined;
}
