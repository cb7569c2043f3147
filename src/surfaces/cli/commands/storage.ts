import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { openStorage } from '../../../app/wiring/index.js';
import { requireRedisUrl } from '../../../platform/redis/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { connectProducer } from '../../../platform/redis/index.js';
import {
  OBJECT_KINDS,
  SWEPT_KINDS,
  retentionOn,
  storageStats,
  sweep,
  type StorageStats,
  type SweepProgress,
  type SweepReport,
} from '../../../jobs/retention/index.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../io.js';

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
    .action(async (flags: { json?: boolean }) => {
      const config = loadConfig();
      const progress = new ListingProgress('storage stats');
      let stats: StorageStats;
      try {
        stats = await storageStats(await openStorage(config), config.retention, {
          onObject: () => progress.listed(),
        });
      } finally {
        progress.stop();
      }
      if (flags.json) printJson(stats, true);
      else process.stdout.write(statsTable(stats));
    });

  storage
    .command('sweep')
    .description('remove uploads and renders past their age, except what queued jobs need')
    .option('--dry-run', 'report what would be removed; remove nothing')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', SWEEP_HELP + '\n' + KINDS_HELP)
    .action(async (flags: { dryRun?: boolean; json?: boolean }) => {
      const config = loadConfig();
      if (!retentionOn(config.retention)) {
        process.stderr.write(
          'docpipe: retention is off (DOCPIPE_RETENTION_UPLOADS and DOCPIPE_RETENTION_RENDERS are "off"): nothing to remove\n',
        );
        return;
      }
      const report = await runSweep(config, flags.dryRun ?? false);
      if (report === undefined) return;
      if (flags.json) printJson(report, true);
      else process.stdout.write(sweepSummary(report));
      if (report.uploadsSkipped) process.stderr.write(`docpipe: ${report.uploadsSkipped}\n`);
      if (report.stopped)
        process.stderr.write(`docpipe: the sweep stopped early: ${report.stopped}\n`);
      process.exitCode =
        report.uploadsSkipped || report.stopped
          ? EXIT.unavailable
          : report.failures.length > 0
            ? EXIT.failed
            : EXIT.ok;
    });
}

/** The sweep on the Redis `enqueue` would use; undefined (exit 3) when another is sweeping. */
async function runSweep(config: DocpipeConfig, dryRun: boolean): Promise<SweepReport | undefined> {
  const redisUrl = await requireRedisUrl(config);
  // Redis not answering is QueueUnavailableError: exit 3.
  const redis = await connectProducer(redisUrl);
  const progress = new ListingProgress(dryRun ? 'storage sweep --dry-run' : 'storage sweep');
  try {
    const outcome = await sweep({
      storage: await openStorage(config),
      redis,
      prefix: config.queue.prefix,
      ages: config.retention,
      dryRun,
      onProgress: (p) => progress.show(p),
    });
    progress.stop();
    if (outcome.swept) return outcome;
    process.stderr.write(
      `docpipe: another docpipe (${outcome.heldBy}) is sweeping right now; nothing was done. Try again when it is done.\n`,
    );
    process.exitCode = EXIT.unavailable;
    return undefined;
  } finally {
    progress.stop();
    redis.disconnect();
  }
}

/** A progress line on stderr while storage is listed and objects removed; only on a terminal. */
class ListingProgress {
  private bar: cliProgress.SingleBar | undefined;
  private phase: SweepProgress['phase'] | undefined;
  private count = 0;

  constructor(private readonly title: string) {}

  listed(): void {
    this.show({ phase: 'listing', listed: ++this.count });
  }

  show(progress: SweepProgress): void {
    if (!process.stderr.isTTY) return;
    if (progress.phase !== this.phase) {
      this.bar?.stop();
      this.phase = progress.phase;
      this.bar = new cliProgress.SingleBar(
        {
          format:
            progress.phase === 'listing'
              ? `${this.title}: listed {value} objects`
              : `${this.title}: |{bar}| {value}/{total} expired objects looked at | ETA {eta_formatted}`,
          stream: process.stderr,
          clearOnComplete: true,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(progress.phase === 'listing' ? 0 : progress.total, 0);
    }
    this.bar!.update(progress.phase === 'listing' ? progress.listed : progress.done);
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}

function statsTable(stats: StorageStats): string {
  const rows = [
    ['KIND', 'OBJECTS', 'SIZE', 'OLDEST', 'MAX AGE', 'PAST AGE'],
    ...OBJECT_KINDS.map((kind) => {
      const k = stats.kinds[kind];
      return [
        kind,
        String(k.objects),
        size(k.bytes),
        k.oldest
          ? `${when(k.oldest)} (${duration(stats.at.getTime() - k.oldest.getTime())} ago)`
          : '-',
        k.maxAgeMs === null ? 'kept' : exactDuration(k.maxAgeMs),
        k.maxAgeMs === null ? '-' : `${k.expired.objects} (${size(k.expired.bytes)})`,
      ];
    }),
  ];
  return columns(rows);
}

function sweepSummary(report: SweepReport): string {
  const removed = SWEPT_KINDS.map((k) => report.removed[k]);
  const objects = removed.reduce((n, t) => n + t.objects, 0);
  const bytes = removed.reduce((n, t) => n + t.bytes, 0);
  const lines = [
    `${report.dryRun ? 'would remove' : 'removed'} ${objects} objects (${size(bytes)}) of ${report.listed} in ${(report.durationMs / 1000).toFixed(1)} s`,
    ...SWEPT_KINDS.map(
      (k) => `  ${k}: ${report.removed[k].objects} (${size(report.removed[k].bytes)})`,
    ),
    `kept past their age: ${report.kept.forJobs} needed by unfinished jobs, ${report.kept.reused} used again during the sweep`,
    ...report.failures.map((f) => `  FAIL ${f.key}: ${f.message}`),
  ];
  return `${lines.join('\n')}\n`;
}

function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

function when(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Bytes in the largest unit that keeps a number of at least 1: 512 B, 3.4 MB. */
function size(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
] as const;

/** An age, rounded down to its largest unit: 3d, 12h, 45m, 20s. */
function duration(ms: number): string {
  for (const [unit, each] of UNITS) if (ms >= each) return `${Math.floor(ms / each)}${unit}`;
  return '0s';
}

/** A configured age the way DOCPIPE_RETENTION_* is written (36h stays 36h, never 1d). */
function exactDuration(ms: number): string {
  for (const [unit, each] of UNITS) if (ms % each === 0) return `${ms / each}${unit}`;
  return `${ms}ms`;
}
