import { silentLogger } from '../../../base/log/index.js';
import {
  channelMailer,
  inviteMember,
  type AccountDeps,
  type Invited,
} from '../../../service/accounts/index.js';
import { messageChannels } from '../../../service/messages/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import type { Member } from '../pages/index.js';

/** What the invite form asks for. */
export interface InviteInput {
  email: string;
  name: string;
  admin: boolean;
}

/** Invites a member as the member `by`: the account use case that the CLI's invitation uses. */
export type InviteMember = (by: Member, input: InviteInput) => Promise<Invited>;

/**
 * The invitation of the members page: service/accounts' inviteMember (the member, and the
 * e-mail with its 7-day link) over the installation's e-mail channel (SMTP, or the .eml folder
 * without one), opened when the pages are registered and closed with the server.
 */
export function membersInvite(scope: HttpApp, context: SurfaceContext): InviteMember {
  const { config, db, publicUrl, logger } = context.deps;
  let deps: AccountDeps | undefined;
  let close: (() => Promise<void>) | undefined;
  scope.addHook('onClose', async () => {
    await close?.();
  });
  return (by, input) => {
    if (!deps) {
      // Opened at the first invitation: a server that never invites opens no SMTP connection.
      const channels = messageChannels(config.delivery, logger ?? silentLogger);
      close = () => channels.close();
      deps = { db, publicUrl, mailer: channelMailer(channels.email, config.delivery.from) };
    }
    return inviteMember(deps, by.companyId, input, { name: by.session.name });
  };
}
