import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { findTemplateFolders } from '../../check/index.js';
import { canonicalJson } from '../../pipeline/index.js';
import { loadConfig, type DocpipeConfig } from '../../config/index.js';
import { FolderLibrary } from '../../library/index.js';
import type { TagInput } from '../../fill/index.js';
import type { BatchOutcome, DocumentInput } from '../../queue/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { printJson, readJson } from '../io.js';
import { connectClient, resolveRedisUrl } from '../runtime.js';

interface Item {
  /** How the report names it: a library id or a path. */
  label: string;
  document: DocumentInput;
  jobId: string;
}

export function registerRerender(program: Command): void {
  program
    .command('rerender')
    .description(
      're-render documents in bulk through the queue: a library folder, any folder of files, or a manifest.jsonl',
    )
    .argument(
      '<source>',
      'the library (templates/), a folder of .docx/.pdf files, or manifest.jsonl',
    )
    .option(
      '-t, --tags <file>',
      "tag values for every document (default: each library document's first fixture)",
    )
    .option('--json', 'print the JSON report')
    .option('--timeout <ms>', 'how long to wait for each document', '600000')
    .addHelpText(
      'after',
      '\nmanifest.jsonl: one object a line, {"documentId": "lease", "versionId": "1", "tags": [...]} or {"file": "a.docx", "tags": [...]}.\n' +
        'Job ids are stable: a rerun resumes (jobs still known to Redis are not added again; finished renders come from storage).\n' +
        'Exit status: 0 when every document rendered, 1 when any failed, 2 on bad usage.',
    )
    .action(async (source: string, flags: { tags?: string; json?: boolean; timeout: string }) => {
      const config = loadConfig();
      const redisUrl = await resolveRedisUrl(config);
      if (!redisUrl) throw new UsageError('no Redis: set REDIS_URL, or run "docpipe start" first');
      const tags = flags.tags ? ((await readJson(flags.tags)) as TagInput[]) : undefined;
      const items = await collect(source, config, tags);
      if (items.length === 0) throw new UsageError(`nothing to render in ${source}`);
      const client = await connectClient(config, redisUrl).catch((err: Error) => {
        throw new UsageError(err.message);
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
      let failed = 0;
      bar.start(items.length, 0, { rate: '0.0', failed });
      let outcomes: BatchOutcome[];
      try {
        outcomes = await client.renderEach(
          items.map((i) => ({ document: i.document, jobId: i.jobId })),
          (_index, outcome) => {
            if (!outcome.ok) failed++;
            bar.increment(1, {
              rate: (
                (bar.getProgress() * items.length) /
                Math.max(0.001, (Date.now() - started) / 1000)
              ).toFixed(1),
              failed,
            });
          },
          { timeoutMs: Number(flags.timeout) },
        );
      } finally {
        bar.stop();
        await client.close();
      }
      const report = summarize(items, outcomes, Date.now() - started);
      if (flags.json) printJson(report, true);
      else printSummary(report);
      process.exitCode = report.failed > 0 ? EXIT.failed : EXIT.ok;
    });
}

async function collect(
  source: string,
  config: DocpipeConfig,
  tags: TagInput[] | undefined,
): Promise<Item[]> {
  const path = resolve(source);
  if (!existsSync(path)) throw new UsageError(`${source} does not exist`);
  if ((await stat(path)).isFile()) return fromManifest(path, tags);
  const library = await findTemplateFolders(path).catch(() => []);
  if (library.length > 0) {
    const isConfigured = path === resolve(config.templatesDir);
    const configured = isConfigured ? new FolderLibrary(path) : undefined;
    const items: Item[] = [];
    for (const folder of library) {
      const values =
        tags ??
        (folder.fixtures[0]
          ? ((await readJson(folder.fixtures[0].tags)) as TagInput[])
          : undefined);
      // The configured library is rendered by reference, at its current version; the job id
      // also covers the template's bytes, so that an edited template is rendered again, not
      // answered with the last run's job. Another folder's templates go by content.
      if (configured) {
        const version = await configured.getVersion(folder.id, undefined);
        const document: DocumentInput = {
          name: folder.name,
          documentId: folder.id,
          versionId: version.versionId,
          tags: values,
        };
        items.push({ label: folder.id, document, jobId: stableId(document, version.bytes) });
        continue;
      }
      const document: DocumentInput = {
        name: folder.name,
        content: await readFile(folder.template),
        tags: values,
        options: folder.options,
      };
      items.push({ label: folder.id, document, jobId: stableId(document) });
    }
    return items;
  }
  const files = (await walk(path)).filter((f) => !/\.(md|tsv)$/i.test(f));
  return Promise.all(
    files.map(async (file) => {
      const document: DocumentInput = { name: basename(file), content: await readFile(file), tags };
      return { label: relative(process.cwd(), file), document, jobId: stableId(document) };
    }),
  );
}

async function fromManifest(file: string, tags: TagInput[] | undefined): Promise<Item[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const items: Item[] = [];
  for (const [n, line] of lines.entries()) {
    let entry: {
      documentId?: string;
      versionId?: string;
      file?: string;
      name?: string;
      tags?: TagInput[];
    };
    try {
      entry = JSON.parse(line);
    } catch {
      throw new UsageError(`${file}:${n + 1} is not JSON`);
    }
    const values = entry.tags ?? tags;
    let document: DocumentInput;
    if (entry.documentId)
      document = {
        name: entry.name ?? entry.documentId,
        documentId: entry.documentId,
        versionId: entry.versionId,
        tags: values,
      };
    else if (entry.file)
      document = {
        name: entry.name ?? basename(entry.file),
        content: await readFile(resolve(file, '..', entry.file)),
        tags: values,
      };
    else throw new UsageError(`${file}:${n + 1} needs "documentId" or "file"`);
    items.push({ label: entry.documentId ?? entry.file!, document, jobId: stableId(document) });
  }
  return items;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** The same document, values and options give the same job id: a rerun resumes, it does not duplicate. */
function stableId(document: DocumentInput, bytes = document.content): string {
  const { content: _content, ...rest } = document;
  const hash = createHash('sha256').update(canonicalJson(rest));
  if (bytes) hash.update(bytes);
  return `rerender-${hash.digest('hex').slice(0, 40)}`;
}

interface Report {
  total: number;
  converted: number;
  fromCache: number;
  /** Rendered by an earlier run of the same batch (stable job ids): not done again. */
  fromEarlierRun: number;
  byReference: number;
  failed: number;
  failedByReason: Record<string, number>;
  seconds: number;
  documents: {
    document: string;
    ok: boolean;
    key?: string;
    pages?: number;
    cached?: boolean;
    resumed?: boolean;
    error?: string;
    message?: string;
  }[];
}

function summarize(items: Item[], outcomes: BatchOutcome[], ms: number): Report {
  const report: Report = {
    total: items.length,
    converted: 0,
    fromCache: 0,
    fromEarlierRun: 0,
    byReference: 0,
    failed: 0,
    failedByReason: {},
    seconds: ms / 1000,
    documents: [],
  };
  outcomes.forEach((o, i) => {
    const document = items[i]!.label;
    if (!o.ok) {
      report.failed++;
      report.failedByReason[o.failure.error] = (report.failedByReason[o.failure.error] ?? 0) + 1;
      report.documents.push({
        document,
        ok: false,
        error: o.failure.error,
        message: o.failure.details.map((d) => d.message).join('; '),
      });
    } else if (o.result.kind === 'url') {
      report.byReference++;
      report.documents.push({ document, ok: true });
    } else {
      // Each document counts once: what this run did for it, or that an earlier run had.
      if (o.resumed) report.fromEarlierRun++;
      else if (o.result.result.cached) report.fromCache++;
      else report.converted++;
      report.documents.push({
        document,
        ok: true,
        key: o.result.result.key,
        pages: o.result.result.pages,
        cached: o.result.result.cached,
        ...(o.resumed ? { resumed: true } : {}),
      });
    }
  });
  return report;
}

function printSummary(r: Report): void {
  process.stdout.write(
    `\n${r.total} documents in ${r.seconds.toFixed(1)} s: ${r.converted} converted, ${r.fromCache} from cache, ` +
      `${r.fromEarlierRun > 0 ? `${r.fromEarlierRun} finished by an earlier run, ` : ''}${r.failed} failed\n`,
  );
  for (const [reason, count] of Object.entries(r.failedByReason))
    process.stdout.write(`  ${reason}: ${count}\n`);
  for (const d of r.documents.filter((x) => !x.ok))
    process.stdout.write(`  FAIL ${d.document}: ${d.error}: ${d.message}\n`);
}
