import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { connectClient, openStorage } from '../../../app/parts/index.js';
import { requireRedisUrl } from '../../../platform/redis/index.js';
import {
  collectBatch,
  copyBatchOut,
  runBatch,
  summarizeBatch,
  type BatchReport,
} from '../../../jobs/batch/index.js';
import { loadConfig } from '../../../app/config/index.js';
import type { TagInput } from '../../../document/values/index.js';
import { readJson } from '../../../base/files/index.js';
import { isQueueUnavailableError } from '../../../platform/redis/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';

export interface RerenderFlags {
  tags?: string;
  json?: boolean;
  timeout: string;
  company?: string;
  outDir?: string;
}

/** `docpipe rerender`, declared in commands/rerender.ts, which loads this module only when it runs. */
export async function runRerender(source: string, flags: RerenderFlags): Promise<void> {
  const config = loadConfig();
  const company = companyFlag(flags.company);
  // What to render is checked first: a typo in a path is named before any missing Redis.
  const tags = flags.tags ? ((await readJson(flags.tags)) as TagInput[]) : undefined;
  const items = await collectBatch(
    source,
    { templatesDir: config.templatesDir, maxInputBytes: config.limits.maxInputBytes },
    tags,
  );
  if (items.length === 0) throw new UsageError(`nothing to render in ${source}`);
  const redisUrl = await requireRedisUrl(config);
  const outDir = flags.outDir === undefined ? undefined : resolve(flags.outDir);
  if (outDir) await mkdir(outDir, { recursive: true });
  const storage = await openStorage(config);
  const client = await connectClient(config, redisUrl, { company }).catch((err: Error) => {
    throw isQueueUnavailableError(err) ? err : new UsageError(err.message);
  });
  const bar = new cliProgress.SingleBar(
    {
      format:
        'rerender |{bar}| {percentage}% {value}/{total} | {rate}/s | ETA {eta_formatted} | failed {failed}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  let failed = items.filter((i) => i.failure).length;
  bar.start(items.length, failed, { rate: '0.0', failed });
  let outcomes;
  try {
    outcomes = await runBatch(client, items, {
      timeoutMs: Number(flags.timeout),
      onSettled: (outcome) => {
        if (!outcome.ok) failed++;
        bar.increment(1, {
          rate: (
            (bar.getProgress() * items.length) /
            Math.max(0.001, (Date.now() - started) / 1000)
          ).toFixed(1),
          failed,
        });
      },
    });
  } finally {
    bar.stop();
    await client.close();
  }
  const report = summarizeBatch(items, outcomes, Date.now() - started, storage);
  if (outDir) await copyBatchOut(report, items, storage, outDir);
  if (flags.json) printJson(report, true);
  else printSummary(report, outDir);
  process.exitCode = report.failed > 0 ? EXIT.failed : EXIT.ok;
}

function printSummary(r: BatchReport, outDir: string | undefined): void {
  process.stdout.write(
    `\n${r.total} documents in ${r.seconds.toFixed(1)} s: ${r.converted} converted, ${r.fromCache} from cache, ` +
      `${r.fromEarlierRun > 0 ? `${r.fromEarlierRun} finished by an earlier run, ` : ''}${r.failed} failed\n`,
  );
  for (const [reason, count] of Object.entries(r.failedByReason))
    process.stdout.write(`  ${reason}: ${count}\n`);
  for (const d of r.documents.filter((x) => !x.ok))
    process.stdout.write(`  FAIL ${d.document}: ${d.error}: ${d.message}\n`);
  if (outDir) {
    const copied = r.documents.filter((d) => d.out).length;
    process.stdout.write(`PDFs copied to ${outDir}: ${copied}\n`);
  }
}
