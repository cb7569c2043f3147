import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { OidcLoginIdentity } from './oidc-login.js';
import type { LoginOidcProvider } from './oidc-login-provider.js';

/** Who a single sign-on logs in: the login, and its membership in the provider's company. */
export interface SsoMember {
  loginId: string;
  /** The membership in the provider's company; undefined when another login holds it. */
  userId: string | undefined;
  /** Two-factor log-in is on for the login: the session still asks for the code. */
  totpEnabled: boolean;
  /** Made by this log-in (the person's first). */
  created: boolean;
}

/** The provider's company is absent or disabled: the operator's configuration is wrong. */
export class SsoCompanyUnavailableError extends Error {
  override readonly name = 'SsoCompanyUnavailableError';
}

/**
 * The login of the address `identity` vouches for, made when new (without a password: the
 * provider is how it logs in), its address marked confirmed (the provider verified it), and a
 * member (not an admin) of the provider's company, joined when not one yet. An existing login
 * and membership are kept as they are (an admin stays an admin). One transaction: two first
 * log-ins at once make one login and one membership.
 */
export async function ssoMemberFor(
  db: Kysely<Database>,
  provider: LoginOidcProvider,
  identity: OidcLoginIdentity,
  now: Date = new Date(),
): Promise<SsoMember> {
  const email = identity.email.trim();
  const lower = email.toLowerCase();
  return db.transaction().execute(async (tx) => {
    const company = await tx
      .selectFrom('companies')
      .select(['id', 'disabled'])
      .where('id', '=', provider.company)
      .executeTakeFirst();
    if (!company || company.disabled)
      throw new SsoCompanyUnavailableError(
        `SSO provider ${provider.name}: company ${provider.company} is ${company ? 'disabled' : 'absent'}`,
      );
    const inserted = await tx
      .insertInto('logins')
      .values({ email, name: identity.name, password_hash: null, email_confirmed_at: now })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning(['id', 'totp_enabled_at'])
      .executeTakeFirst();
    const login =
      inserted ??
      (await tx
        .selectFrom('logins')
        .select(['id', 'totp_enabled_at'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', lower))
        .executeTakeFirstOrThrow());
    if (!inserted)
      await tx
        .updateTable('logins')
        .set({ email_confirmed_at: now })
        .where('id', '=', login.id)
        .where('email_confirmed_at', 'is', null)
        .execute();
    // Joined when not a member yet; a membership made meanwhile (or an invitation's) is kept.
    await tx
      .insertInto('users')
      .values({
        company_id: provider.company,
        email,
        name: identity.name,
        admin: false,
        login_id: login.id,
      })
      .onConflict((oc) => oc.expression(sql`company_id, lower(email)`).doNothing())
      .execute();
    const member = await tx
      .selectFrom('users')
      .select(['id', 'login_id'])
      .where('company_id', '=', provider.company)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', lower))
      .executeTakeFirstOrThrow();
    if (member.login_id === null)
      await tx
        .updateTable('users')
        .set({ login_id: login.id })
        .where('id', '=', member.id)
        .execute();
    // A membership of this address that another login holds (its address changed) is not
    // taken over: the session then opens the login's own memberships only.
    const userId = member.login_id === null || member.login_id === login.id ? member.id : undefined;
    return {
      loginId: login.id,
      userId,
      totpEnabled: login.totp_enabled_at !== null,
      created: inserted !== undefined,
    };
  });
}
