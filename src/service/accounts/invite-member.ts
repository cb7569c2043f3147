import { CompanyRepository, UserRepository, type User } from '../companies/index.js';
import type { ChannelResult } from '../messages/index.js';
import { accountUrls, type AccountDeps } from './account-deps.js';
import { LoginLinks } from './login-links.js';
import { LoginRepository } from './login-repository.js';

/** Who is invited: the member's address, name and whether they administer the company. */
export interface Invitee {
  email: string;
  name: string;
  admin?: boolean;
}

export interface Invited {
  user: User;
  /** The invitation e-mail's fate on the e-mail channel (an .eml path, or why it failed). */
  sent: ChannelResult;
}

/**
 * Adds a member to `company` (UserRepository.add: RecordExistsError, RecordInvalidError,
 * RecordNotFoundError as there) and sends the invitation e-mail with its link (7 days): the
 * person sets their name and password through it, or, when their address already has a login,
 * logs in with it and the membership joins that login. `invitedBy` is named in the e-mail.
 */
export async function inviteMember(
  deps: AccountDeps,
  company: string,
  invitee: Invitee,
  invitedBy?: { name: string },
): Promise<Invited> {
  const user = await new UserRepository(deps.db).add(company, {
    email: invitee.email,
    name: invitee.name,
    admin: invitee.admin ?? false,
  });
  const sent = await sendInvitation(deps, user, invitedBy);
  return { user, sent };
}

/** Sends (again) a member's invitation, with a new link; the older links keep working. */
export async function sendInvitation(
  deps: AccountDeps,
  user: User,
  invitedBy?: { name: string },
): Promise<ChannelResult> {
  const company = await new CompanyRepository(deps.db).get(user.company);
  const login = await new LoginRepository(deps.db).findByEmail(user.email);
  const token = await new LoginLinks(deps.db).issue('invite', {
    email: user.email,
    userId: user.id,
    loginId: login?.id ?? null,
  });
  const language =
    login?.language ?? (company.defaultLanguage?.toLowerCase().startsWith('en') ? 'en' : 'da');
  return deps.mailer.send({
    kind: 'invite',
    language,
    to: { email: user.email, name: user.name },
    url: accountUrls.invitation(deps.publicUrl, token),
    company: company.name,
    ...(invitedBy ? { invitedBy: invitedBy.name } : {}),
  });
}
