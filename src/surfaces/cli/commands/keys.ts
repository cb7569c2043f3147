import type { Command } from 'commander';

const DATABASE_HELP =
  '\nUses DATABASE_URL, or the PostgreSQL of a running "docpipe start"; every docpipe server on that\n' +
  'database accepts the keys. Only the SHA-256 of a key is stored.\n' +
  'Exit status: 0 done, 2 bad usage (or no database, no such company, user or key),\n' +
  '3 PostgreSQL does not answer.';

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('create, list and revoke the API keys of the HTTP service')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe keys create --company acme --user ops@acme.example --name "billing server" --expires 90d\n' +
        '  docpipe keys list\n' +
        '  docpipe keys revoke 3f9c0a1b2c3d4e5f\n' +
        DATABASE_HELP,
    );

  keys
    .command('create')
    .description('create a key for a user of a company and print it, once')
    .requiredOption('--company <id>', 'the company the key acts for (letters, digits, . _ -)')
    .requiredOption(
      '--user <email>',
      'the user it belongs to, whose cases it creates: a member of the company (docpipe users add)',
    )
    .option('--name <name>', 'what the key is for, shown in the list (default: "API key")')
    .option('--expires <duration>', 'lifetime: days, hours or minutes, such as 90d, 12h, 30m')
    .option('--json', 'print {id, company, name, userId, user, createdAt, expiresAt, key} as JSON')
    .addHelpText(
      'after',
      '\nThe key is printed on stdout alone (or as JSON with --json) and cannot be shown again: only\n' +
        'its hash is kept. A lost key is replaced by creating a new one and revoking the old one.\n' +
        'A key starts with dp_live_ in production and with dp_test_ in the test environment\n' +
        '(DOCPIPE_ENVIRONMENT=test), and works only in its own; keys made as dp_<id>_<secret>\n' +
        'before keys named their environment are production keys.\n' +
        'Without --expires the key works until it is revoked. The company must exist and not be\n' +
        'disabled, and the user must be one of its members (docpipe companies, docpipe users).\n' +
        '\nExamples:\n' +
        '  docpipe keys create --company acme --user ops@acme.example --name "billing server"\n' +
        '  KEY=$(docpipe keys create --company acme --user ci@acme.example --expires 30d)\n' +
        DATABASE_HELP,
    )
    .action(
      async (flags: {
        company: string;
        user: string;
        name?: string;
        expires?: string;
        json?: boolean;
      }) => (await import('../actions/keys.js')).createKey(flags),
    );

  keys
    .command('list')
    .description(
      'every key: id, company, user, status, created, expires, revoked, name (never the key)',
    )
    .option('--company <id>', "only this company's keys")
    .option('--json', 'print the list as JSON')
    .addHelpText('after', DATABASE_HELP)
    .action(async (flags: { company?: string; json?: boolean }) =>
      (await import('../actions/keys.js')).listKeys(flags),
    );

  keys
    .command('revoke')
    .description('revoke a key for good: requests with it fail with 401 within 5 seconds')
    .argument('<id>', 'the key id, as "docpipe keys list" shows it (not the key itself)')
    .addHelpText('after', '\nExample:\n  docpipe keys revoke 3f9c0a1b2c3d4e5f\n' + DATABASE_HELP)
    .action(async (id: string) => (await import('../actions/keys.js')).revokeKey(id));
}
