import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

export function registerUsers(program: Command): void {
  const users = program
    .command('users')
    .description("add, list and remove a company's users (the senders of its cases)")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe users add --company acme --email ann@acme.example --name "Ann Berg" --admin\n' +
        '  docpipe users list --company acme\n' +
        '  docpipe users remove --company acme --email ann@acme.example\n' +
        RECORDS_HELP,
    );

  users
    .command('add')
    .description(
      'add a user to a company and send them an invitation e-mail to the dashboard; an e-mail address is one user whatever its case',
    )
    .requiredOption('--company <id>', 'the company the user belongs to')
    .requiredOption('--email <address>', 'the e-mail address: unique in the company')
    .requiredOption('--name <name>', "the user's name, shown as the sender of cases")
    .option('--admin', 'the user administers the company')
    .option(
      '--no-invite',
      'do not send the invitation e-mail (its link lets the user choose a password and log in)',
    )
    .option(
      '--json',
      'print the user {id, company, email, name, admin, createdAt, invitation} as JSON',
    )
    .addHelpText('after', RECORDS_HELP)
    .action(
      async (flags: {
        company: string;
        email: string;
        name: string;
        admin?: boolean;
        invite: boolean;
        json?: boolean;
      }) => (await import('../actions/users.js')).addUser(flags),
    );

  users
    .command('list')
    .description("a company's users: e-mail, admin, created, name")
    .requiredOption('--company <id>', 'the company')
    .option('--json', 'print the list as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; json?: boolean }) =>
      (await import('../actions/users.js')).listUsers(flags),
    );

  users
    .command('remove')
    .description("remove a user; the user's API keys then act for no user (key-has-no-user)")
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--email <address>', "the user's e-mail address, in any case")
    .option('--json', 'print the removed user as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; email: string; json?: boolean }) =>
      (await import('../actions/users.js')).removeUser(flags),
    );
}
