import type { AccountDeps } from './account-deps.js';
import { LoginRepository } from './login-repository.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { passwordProblem, type PasswordProblem } from './password-policy.js';
import type { SessionStore } from './session-store.js';

export type ChangePasswordOutcome =
  | { ok: true; endedSessions: number }
  | { ok: false; field: 'current'; problem: 'wrong' }
  | { ok: false; field: 'password'; problem: PasswordProblem | 'mismatch' };

/**
 * The person's own page: the password changes when the current one is given; every other
 * session of the login ends, the one asking stays.
 */
export async function changePassword(
  deps: AccountDeps,
  sessions: SessionStore,
  who: { loginId: string; sessionId: string },
  input: { current: string; password: string; repeated: string },
): Promise<ChangePasswordOutcome> {
  const logins = new LoginRepository(deps.db);
  const login = await logins.findById(who.loginId);
  if (!login?.passwordHash || !(await verifyPassword(login.passwordHash, input.current)))
    return { ok: false, field: 'current', problem: 'wrong' };
  const problem = passwordProblem(input.password, login.email);
  if (problem) return { ok: false, field: 'password', problem };
  if (input.password !== input.repeated)
    return { ok: false, field: 'password', problem: 'mismatch' };
  await logins.setPassword(login.id, await hashPassword(input.password));
  const endedSessions = await sessions.endAllOf(login.id, who.sessionId);
  return { ok: true, endedSessions };
}
