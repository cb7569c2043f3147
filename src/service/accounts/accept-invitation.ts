import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { AccountDeps } from './account-deps.js';
import { nameFieldProblem, type TextProblem } from './account-fields.js';
import { LoginLinks, type LinkState } from './login-links.js';
import { LoginRepository } from './login-repository.js';
import { hashPassword } from './password-hash.js';
import { passwordProblem, type PasswordProblem } from './password-policy.js';

/** An invitation as its page shows it. */
export interface Invitation {
  userId: string;
  email: string;
  name: string;
  companyId: string;
  companyName: string;
  /** The login the address already has: the person logs in with it to accept. */
  loginId: string | null;
}

export type InvitationState =
  { state: 'valid'; invitation: Invitation } | { state: 'used' | 'expired' | 'unknown' };

/** The invitation of `token` (without using it), or why it does not work. */
export async function readInvitation(deps: AccountDeps, token: string): Promise<InvitationState> {
  const seen = await new LoginLinks(deps.db).peek(token, 'invite');
  if (seen.state !== 'valid') return seen;
  return invitationOf(deps.db, seen);
}

async function invitationOf(
  db: Kysely<Database>,
  seen: Extract<LinkState, { state: 'valid' }>,
): Promise<InvitationState> {
  if (seen.link.userId === null) return { state: 'unknown' };
  const row = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select(['u.id', 'u.email', 'u.name', 'u.login_id', 'c.id as company_id', 'c.name as company'])
    .where('u.id', '=', seen.link.userId)
    .executeTakeFirst();
  // Taken already through another link of the same member: this one has nothing left to do.
  if (!row) return { state: 'unknown' };
  if (row.login_id !== null) return { state: 'used' };
  const login = await new LoginRepository(db).findByEmail(row.email);
  return {
    state: 'valid',
    invitation: {
      userId: row.id,
      email: row.email,
      name: row.name,
      companyId: row.company_id,
      companyName: row.company,
      loginId: login?.id ?? null,
    },
  };
}

export type AcceptOutcome =
  | { state: 'done'; loginId: string; userId: string }
  | {
      state: 'refused';
      problems: { name?: TextProblem; password?: PasswordProblem | 'mismatch' };
    }
  /** The address has a login: the person must log in with it (joinInvitation). */
  | { state: 'has-login' }
  | { state: 'used' | 'expired' | 'unknown' };

/**
 * A new person takes their invitation: their name and password make their login (the link
 * proves the address), joined to the membership; the link is used up.
 */
export async function acceptInvitation(
  deps: AccountDeps,
  token: string,
  input: { name: string; password: string; repeated: string; language: 'da' | 'en' },
): Promise<AcceptOutcome> {
  const read = await readInvitation(deps, token);
  if (read.state !== 'valid') return read;
  const invitation = read.invitation;
  if (invitation.loginId !== null) return { state: 'has-login' };
  const problems: { name?: TextProblem; password?: PasswordProblem | 'mismatch' } = {};
  const nameProblem = nameFieldProblem(input.name);
  if (nameProblem) problems.name = nameProblem;
  const password =
    passwordProblem(input.password, invitation.email) ??
    (input.password === input.repeated ? undefined : 'mismatch');
  if (password) problems.password = password;
  if (problems.name || problems.password) return { state: 'refused', problems };
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction().execute(async (tx) => {
      const taken = await new LoginLinks(tx).take(token, 'invite');
      if (taken.state !== 'valid') return taken;
      const login = await new LoginRepository(tx).create({
        email: invitation.email,
        name: input.name,
        passwordHash,
        language: input.language,
        emailConfirmedAt: new Date(),
      });
      await joinUser(tx, invitation.userId, login.id, input.name.trim());
      return { state: 'done' as const, loginId: login.id, userId: invitation.userId };
    });
  } catch (err) {
    const e = err as { code?: unknown; constraint?: unknown };
    // The address got a login meanwhile (a sign-up): log in with it.
    if (e.code === '23505' && e.constraint === 'logins_email') return { state: 'has-login' };
    throw err;
  }
}

/**
 * A logged-in person takes an invitation sent to their login's address: the membership joins
 * their login. Refused (`wrong-login`) for a login of another address: the link is the
 * invited address's, not a way into the company for whoever holds it.
 */
export async function joinInvitation(
  deps: AccountDeps,
  token: string,
  loginId: string,
): Promise<
  { state: 'done'; userId: string } | { state: 'wrong-login' | 'used' | 'expired' | 'unknown' }
> {
  const read = await readInvitation(deps, token);
  if (read.state !== 'valid') return read;
  if (read.invitation.loginId !== loginId) return { state: 'wrong-login' };
  return deps.db.transaction().execute(async (tx) => {
    const taken = await new LoginLinks(tx).take(token, 'invite');
    if (taken.state !== 'valid') return taken;
    await joinUser(tx, read.invitation.userId, loginId);
    await new LoginRepository(tx).confirmEmail(loginId);
    return { state: 'done' as const, userId: read.invitation.userId };
  });
}

async function joinUser(tx: Kysely<Database>, userId: string, loginId: string, name?: string) {
  await tx
    .updateTable('users')
    .set({ login_id: loginId, ...(name === undefined ? {} : { name }) })
    .where('id', '=', userId)
    .where('login_id', 'is', null)
    .execute();
}
