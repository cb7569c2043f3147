import { isCommonPassword } from './common-passwords.js';

/** The shortest password a login may have. */
export const MIN_PASSWORD_CHARS = 10;

/**
 * The longest: far beyond any passphrase, and short enough that a form cannot make the server
 * hash a megabyte.
 */
export const MAX_PASSWORD_CHARS = 256;

/** Why a new password is refused; the pages say each in the person's language. */
export type PasswordProblem = 'too-short' | 'too-long' | 'common' | 'is-email';

/** Why `password` may not be a login's password, or undefined when it may. */
export function passwordProblem(password: string, email?: string): PasswordProblem | undefined {
  // Characters as a person counts them: an emoji or an "å" is one.
  const length = [...password].length;
  if (length < MIN_PASSWORD_CHARS) return 'too-short';
  if (length > MAX_PASSWORD_CHARS) return 'too-long';
  if (isCommonPassword(password)) return 'common';
  if (email !== undefined && password.trim().toLowerCase() === email.trim().toLowerCase())
    return 'is-email';
  return undefined;
}
