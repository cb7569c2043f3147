import type { Command } from 'commander';

const KINDS_HELP =
  '\nKinds: uploads (companies/<hex>/uploads/..., with their .meta.json name), job-inputs (uploads/*.bin,\n' +
  'large documents the queue client stored for jobs), renders (renders/.../*.pdf, with their .kept\n' +
  'marker), other (anything else: never removed). Ages come from DOCPIPE_RETENTION_UPLOADS (uploads and\n' +
  'job inputs) and DOCPIPE_RETENTION_RENDERS; "off" keeps a kind. A render reused from the cache\n' +
  'counts as new; nothing written in the last 10 minutes is ever removed.';

const SWEEP_HELP =
  '\nWhat an unfinished job (waiting, delayed, active...) still reads is kept whatever its age; when the\n' +
  'queued jobs cannot be read, no upload is removed. One sweep runs at a time across every machine on\n' +
  'the Redis (a lock under DOCPIPE_QUEUE_PREFIX); a running "docpipe start" or "docpipe worker" also\n' +
  'sweeps every DOCPIPE_RETENTION_SWEEP_EVERY. Uses REDIS_URL, or the Redis of a running "docpipe start".\n' +
  '\nExamples:\n' +
  '  docpipe storage sweep --dry-run\n' +
  '  docpipe storage sweep\n' +
  '  docpipe storage sweep --json | jq .removed\n' +
  '\nExit status: 0 swept, 1 some objects could not be removed (listed; the next sweep tries again),\n' +
  '2 bad usage (or no Redis set), 3 Redis does not answer or another docpipe is sweeping right now:\n' +
  'try again later.';

export function registerStorage(program: Command): void {
  const storage = program
    .command('storage')
    .description('show what storage holds and remove uploads and renders past their age')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe storage stats\n' +
        '  docpipe storage sweep --dry-run\n' +
        '  docpipe storage sweep\n' +
        KINDS_HELP,
    );

  storage
    .command('stats')
    .description('objects and bytes by kind, the oldest, and how many are past their age now')
    .option('--json', 'print {at, kinds: {<kind>: {objects, bytes, oldest, maxAgeMs, expired}}}')
    .addHelpText(
      'after',
      '\nReads storage only (DOCPIPE_STORAGE: the local folder or the S3 bucket); needs no Redis.\n' +
        'Past their age: what a sweep would remove now, unless an unfinished job still needs it.\n' +
        '\nExamples:\n  docpipe storage stats\n  docpipe storage stats --json\n' +
        KINDS_HELP +
        '\nExit status: 0 shown, 2 bad usage or configuration.',
    )
    .action(async (flags: { json?: boolean }) =>
      (await import('../actions/storage.js')).showStats(flags),
    );

  storage
    .command('sweep')
    .description('remove uploads and renders past their age, except what queued jobs need')
    .option('--dry-run', 'report what would be removed; remove nothing')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', SWEEP_HELP + '\n' + KINDS_HELP)
    .action(async (flags: { dryRun?: boolean; json?: boolean }) =>
      (await import('../actions/storage.js')).sweepStorage(flags),
    );
}
