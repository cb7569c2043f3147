import { loadConfig, publicUrlOf } from '../../../app/config/index.js';
import { silentLogger } from '../../../base/log/index.js';
import { channelMailer, inviteMember } from '../../../service/accounts/index.js';
import { UserRepository, type User } from '../../../service/companies/index.js';
import { messageChannels, type ChannelResult } from '../../../service/messages/index.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { listRecords } from './company-records.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

const FIELDS = { email: '--email', name: '--name' };

/** `docpipe users add`, declared in commands/users.ts. */
export async function addUser(flags: {
  company: string;
  email: string;
  name: string;
  admin?: boolean;
  /** Commander's `--no-invite`: false skips the invitation e-mail. */
  invite?: boolean;
  json?: boolean;
}): Promise<void> {
  const company = companyFlag(flags.company)!;
  const member = { email: flags.email, name: flags.name, admin: flags.admin ?? false };
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    let user: User;
    let sent: ChannelResult | undefined;
    if (flags.invite === false) user = await new UserRepository(db).add(company, member);
    else {
      // The same e-mail channel as the server's: SMTP, or the .eml folder of DOCPIPE_MAIL_DIR.
      const config = loadConfig();
      const channels = messageChannels(config.delivery, silentLogger);
      try {
        const publicUrl = publicUrlOf(config.http, config.http.port);
        const mailer = channelMailer(channels.email, config.delivery.from);
        ({ user, sent } = await inviteMember({ db, mailer, publicUrl }, company, member));
      } finally {
        await channels.close();
      }
    }
    if (flags.json) printJson({ ...user, invitation: invitationJson(sent) });
    else {
      process.stdout.write(
        `added ${user.email} (${JSON.stringify(user.name)}) to company ${company}` +
          `${user.admin ? ' as an admin' : ''}\n`,
      );
      // A failed e-mail leaves the user added: said on stderr, with the way to send it again.
      (sent && !sent.ok ? process.stderr : process.stdout).write(invitationLine(user, sent));
    }
  });
}

function invitationJson(sent: ChannelResult | undefined) {
  if (!sent) return { sent: false };
  return sent.ok
    ? { sent: true, ...(sent.location ? { location: sent.location } : {}) }
    : { sent: false, error: sent.error ?? 'not sent' };
}

function invitationLine(user: User, sent: ChannelResult | undefined): string {
  if (!sent) return 'no invitation e-mail sent (--no-invite)\n';
  if (sent.ok)
    return (
      `sent the invitation e-mail to ${user.email}` +
      `${sent.location ? ` (${sent.location})` : ''}: its link (7 days) lets them choose a password and log in\n`
    );
  return (
    `docpipe: the invitation e-mail to ${user.email} could not be sent: ${sent.error ?? 'not sent'}; ` +
    'remove the user and add them again once e-mail works, or invite them from the members page\n'
  );
}

/** `docpipe users list`, declared in commands/users.ts. */
export function listUsers(flags: { company: string; json?: boolean }): Promise<void> {
  return listRecords(
    flags,
    (db, company) => new UserRepository(db).list(company),
    table,
    (company) =>
      `company ${company} has no users; add one with: ` +
      `docpipe users add --company ${company} --email <address> --name <name>`,
  );
}

/** `docpipe users remove`, declared in commands/users.ts. */
export async function removeUser(flags: {
  company: string;
  email: string;
  json?: boolean;
}): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    const user = await new UserRepository(db).remove(company, flags.email);
    if (flags.json) printJson(user);
    else
      process.stdout.write(
        `removed ${user.email} from company ${company}; API keys made for this user are refused ` +
          '(key-has-no-user) from now on\n',
      );
  });
}

function table(users: User[]): string {
  return textTable(
    ['EMAIL', 'ADMIN', 'CREATED', 'NAME'],
    users.map((u) => [u.email, u.admin ? 'yes' : 'no', when(u.createdAt), u.name]),
  );
}
