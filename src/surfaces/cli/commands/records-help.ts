/**
 * The help every command on the company records ends with: where the database is, migrations,
 * and the exit statuses (docs/companies.md). Not a command: main.ts registers none from here.
 */
export const RECORDS_HELP =
  '\nUses DATABASE_URL, or the PostgreSQL of a running "docpipe start"; applies pending migrations\n' +
  'first, as "docpipe db migrate" does. See docs/companies.md.\n' +
  'Exit status: 0 done, 1 refused (the company, user, folder, preset or template exists already, or\n' +
  'does not exist; or the database was migrated by a newer docpipe), 2 bad usage (a bad flag value,\n' +
  'an unreadable or refused file, no database set), 3 PostgreSQL does not answer.';
