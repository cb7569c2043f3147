import { accountUrls, type AccountDeps } from './account-deps.js';
import { LoginLinks, type LinkState } from './login-links.js';
import { LoginRepository } from './login-repository.js';
import { hashPassword } from './password-hash.js';
import { passwordProblem, type PasswordProblem } from './password-policy.js';
import type { SessionStore } from './session-store.js';

/**
 * `/user/password/forgot`: a reset link to the address when it has a login, nothing otherwise;
 * the caller answers the same either way.
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  email: string,
  language: 'da' | 'en',
): Promise<void> {
  const login = await new LoginRepository(deps.db).findByEmail(email);
  if (!login) return;
  const token = await new LoginLinks(deps.db).issue('reset', {
    email: login.email,
    loginId: login.id,
  });
  await deps.mailer.send({
    kind: 'reset',
    language: login.language ?? language,
    to: { email: login.email, name: login.name },
    url: accountUrls.reset(deps.publicUrl, token),
  });
}

export type ResetOutcome =
  | { state: 'done'; loginId: string }
  | { state: 'refused'; problem: PasswordProblem | 'mismatch' }
  | Exclude<LinkState, { state: 'valid' }>;

/**
 * `/user/password/reset/{token}`: the new password, given twice, replaces the old one; the link
 * is used up, and so are the login's other reset links; every session of the login ends (a
 * person resetting fears someone else has it). The link also proves the address is theirs.
 */
export async function resetPassword(
  deps: AccountDeps,
  sessions: SessionStore,
  token: string,
  password: string,
  repeated: string,
): Promise<ResetOutcome> {
  const links = new LoginLinks(deps.db);
  const seen = await links.peek(token, 'reset');
  if (seen.state !== 'valid') return seen;
  const problem = passwordProblem(password, seen.link.email);
  if (problem) return { state: 'refused', problem };
  if (password !== repeated) return { state: 'refused', problem: 'mismatch' };
  const passwordHash = await hashPassword(password);
  const taken = await links.take(token, 'reset');
  if (taken.state !== 'valid') return taken;
  const loginId = taken.link.loginId;
  if (loginId === null) return { state: 'unknown' };
  const logins = new LoginRepository(deps.db);
  await logins.setPassword(loginId, passwordHash);
  await logins.confirmEmail(loginId);
  await links.revoke('reset', loginId);
  await sessions.endAllOf(loginId);
  return { state: 'done', loginId };
}
