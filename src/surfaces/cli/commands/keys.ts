import type { Command } from 'commander';

const REDIS_HELP =
  '\nUses REDIS_URL, or the Redis of a running "docpipe start"; keys live under DOCPIPE_QUEUE_PREFIX,\n' +
  'so every docpipe server on that Redis and prefix accepts them.\n' +
  'Exit status: 0 done, 2 bad usage (or no Redis set, or no such key), 3 Redis does not answer.';

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('create, list and revoke the API keys of the HTTP service')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe keys create --company acme --name "billing server" --expires 90d\n' +
        '  docpipe keys list\n' +
        '  docpipe keys revoke 3f9c0a1b2c3d4e5f\n' +
        REDIS_HELP,
    );

  keys
    .command('create')
    .description('create a key for a company and print it, once')
    .requiredOption('--company <id>', 'the company the key acts for (letters, digits, . _ -)')
    .requiredOption('--name <name>', 'what the key is for, shown in the list')
    .option('--expires <duration>', 'lifetime: days, hours or minutes, such as 90d, 12h, 30m')
    .option('--json', 'print {id, company, name, createdAt, expiresAt, key} as JSON')
    .addHelpText(
      'after',
      '\nThe key is printed on stdout alone (or as JSON with --json) and cannot be shown again: only\n' +
        'its hash is kept. A lost key is replaced by creating a new one and revoking the old one.\n' +
        'Without --expires the key works until it is revoked.\n' +
        '\nExamples:\n' +
        '  docpipe keys create --company acme --name "billing server"\n' +
        '  KEY=$(docpipe keys create --company acme --name ci --expires 30d)\n' +
        REDIS_HELP,
    )
    .action(async (flags: { company: string; name: string; expires?: string; json?: boolean }) =>
      (await import('../actions/keys.js')).createKey(flags),
    );

  keys
    .command('list')
    .description('every key: id, company, name, created, expires, revoked (never the key)')
    .option('--company <id>', "only this company's keys")
    .option('--json', 'print the list as JSON')
    .addHelpText('after', REDIS_HELP)
    .action(async (flags: { company?: string; json?: boolean }) =>
      (await import('../actions/keys.js')).listKeys(flags),
    );

  keys
    .command('revoke')
    .description('revoke a key for good: requests with it fail with 401 from now on')
    .argument('<id>', 'the key id, as "docpipe keys list" shows it (not the key itself)')
    .addHelpText('after', '\nExample:\n  docpipe keys revoke 3f9c0a1b2c3d4e5f\n' + REDIS_HELP)
    .action(async (id: string) => (await import('../actions/keys.js')).revokeKey(id));
}
