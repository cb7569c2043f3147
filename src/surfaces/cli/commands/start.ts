import type { Command } from 'commander';
import type { StartFlags } from '../actions/start.js';
import { HELP_DEFAULTS } from '../help-defaults.js';

/** What `start` and `worker` share: the grace period on a stop, and how logs look. */
function withRunOptions(command: Command): Command {
  return command
    .option(
      '--grace <ms>',
      'on Ctrl-C (SIGINT) or SIGTERM, how long active jobs may finish',
      String(HELP_DEFAULTS.closeGraceMs),
    )
    .option(
      '--pretty',
      'readable log lines instead of JSON (the default when stderr is a terminal)',
    );
}

export function registerStart(program: Command): void {
  withRunOptions(program.command('start'))
    .description(
      'run docpipe on embedded defaults: the HTTP service, a worker with the warm office pool, local storage and, without REDIS_URL and DATABASE_URL, its own redis-server and PostgreSQL',
    )
    .addHelpText(
      'after',
      '\nData (Redis append-only file, PostgreSQL, stored PDFs) lives under DOCPIPE_DATA_DIR (default ./data);\n' +
        'as root, PostgreSQL runs as the "postgres" user (see docs/database.md).\n' +
        'one "docpipe start" per data folder (add workers with "docpipe worker").\n' +
        'Ctrl-C stops taking jobs and lets running ones finish (--grace); Ctrl-C again stops at once.\n' +
        'From a second terminal, while it runs:\n' +
        '  npx docpipe enqueue templates/lease/template.docx --tags templates/lease/fixtures/basic.tags.json --json',
    )
    .action(async (flags: StartFlags) => (await import('../actions/start.js')).runStart(flags));

  withRunOptions(program.command('worker'))
    .description(
      'run a worker on a shared Redis (REDIS_URL, or the one a running "docpipe start" uses); run several to share the work',
    )
    .action(async (flags: StartFlags) => (await import('../actions/start.js')).runWorker(flags));

  withRunOptions(program.command('serve'))
    .description(
      'run the HTTP service alone, without office processes: its conversions run on the workers that share its Redis (REDIS_URL, or the one a running "docpipe start" uses)',
    )
    .addHelpText(
      'after',
      '\nListens on DOCPIPE_HTTP_HOST:DOCPIPE_HTTP_PORT (default 127.0.0.1:8080); see docs/http.md.\n' +
        'Ctrl-C stops taking connections and lets requests in flight finish (--grace).',
    )
    .action(async (flags: StartFlags) => (await import('../actions/start.js')).runServe(flags));
}
