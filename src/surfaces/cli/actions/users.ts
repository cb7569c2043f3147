import { UserRepository, type User } from '../../../service/companies/index.js';
import { companyFlag, printJson } from '../io.js';
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
  json?: boolean;
}): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    const user = await new UserRepository(db).add(company, {
      email: flags.email,
      name: flags.name,
      admin: flags.admin ?? false,
    });
    if (flags.json) printJson(user);
    else
      process.stdout.write(
        `added ${user.email} (${JSON.stringify(user.name)}) to company ${company}` +
          `${user.admin ? ' as an admin' : ''}\n`,
      );
  });
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
