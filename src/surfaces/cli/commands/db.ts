import type { Command } from 'commander';

const DB_HELP =
  '\nUses DATABASE_URL, or the PostgreSQL of a running "docpipe start" (which runs its own under\n' +
  'DOCPIPE_DATA_DIR/postgres when DATABASE_URL is not set). "docpipe start", "serve" and "worker"\n' +
  'apply pending migrations themselves when they start; see docs/database.md.\n' +
  'Exit status: 0 done, 1 a migration failed (nothing of it was applied) or the database was migrated\n' +
  'by a newer docpipe, 2 bad usage (or no database set), 3 PostgreSQL does not answer.';

export function registerDb(program: Command): void {
  const db = program
    .command('db')
    .description("the service's PostgreSQL database: apply migrations, show which are applied")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe db status\n' +
        '  DATABASE_URL=postgresql://docpipe:secret@db.internal/docpipe docpipe db migrate\n' +
        DB_HELP,
    );

  db.command('migrate')
    .description('apply the migrations the database lacks, in order, under an advisory lock')
    .option('--json', 'print {applied: [names applied now], already: number applied before}')
    .addHelpText(
      'after',
      '\nSafe to run while docpipe runs and from several machines at once: one applies each\n' +
        'migration, the others wait for it and find it applied. All pending migrations apply in one\n' +
        'transaction.\n' +
        DB_HELP,
    )
    .action(async (flags: { json?: boolean }) => (await import('../actions/db.js')).migrate(flags));

  db.command('status')
    .description('list the applied migrations (with when) and the pending ones; changes nothing')
    .option('--json', 'print {applied: [{name, appliedAt}], pending: [names], unknown: [names]}')
    .addHelpText(
      'after',
      '\n"unknown" lists migrations a newer docpipe applied, which this one does not know.\n' +
        DB_HELP,
    )
    .action(async (flags: { json?: boolean }) => (await import('../actions/db.js')).status(flags));
}
