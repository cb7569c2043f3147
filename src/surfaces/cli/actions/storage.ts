import cliProgress from 'cli-progress';
import { openStorage } from '../../../app/parts/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { connectProducer, requireRedisUrl } from '../../../platform/redis/index.js';
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
import { printJson } from '../print-json.js';
import { byteSize as size, when } from './text-table.js';

/** `docpipe storage stats`: objects and bytes by kind, read from storage alone. */
export async function showStats(flags: { json?: boolean }): Promise<void> {
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
}

/** `docpipe storage sweep`: what is past its age and no unfinished job needs, removed. */
export async function sweepStorage(flags: { dryRun?: boolean; json?: boolean }): Promise<void> {
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
  if (report.stopped) process.stderr.write(`docpipe: the sweep stopped early: ${report.stopped}\n`);
  process.exitCode =
    report.uploadsSkipped || report.stopped
      ? EXIT.unavailable
      : report.failures.length > 0
        ? EXIT.failed
        : EXIT.ok;
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
