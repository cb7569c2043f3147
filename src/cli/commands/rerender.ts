import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { findTemplateFolders } from '../../check/index.js';
import { canonicalJson } from '../../pipeline/index.js';
import { loadConfig, type DocpipeConfig } from '../../config/index.js';
import { FolderLibrary } from '../../library/index.js';
import type { Failure } from '../../errors/index.js';
import type { TagInput } from '../../fill/index.js';
import {
  isQueueUnavailableError,
  type BatchOutcome,
  type DocumentInput,
} from '../../queue/index.js';
import type { LocalStorage } from '../../storage/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { failureReason, failureText } from '../failure-text.js';
import {
  parseJson,
  printJson,
  readInput,
  readJson,
  TooLargeInput,
  writeAtomically,
} from '../io.js';
import { connectClient, openStorage, resolveRedisUrl } from '../../app/index.js';

interface Item {
  /** How the report names it: a library id or a path. */
  label: string;
  /** Where its PDF goes under --out-dir, relative to that folder, without the extension. */
  outName: string;
  document: DocumentInput;
  jobId: string;
  /** Refused before it reached the queue (a missing file, one past the size limit). */
  failure?: Failure;
}

interface RerenderFlags {
  tags?: string;
  json?: boolean;
  timeout: string;
  outDir?: string;
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
    .option('--out-dir <folder>', 'also copy each PDF here, named after its document')
    .option('--json', 'print the JSON report (each PDF with its absolute path)')
    .option('--timeout <ms>', 'how long to wait for each document', '600000')
    .addHelpText(
      'after',
      '\nmanifest.jsonl: one object a line, with exactly these members:\n' +
        '  {"documentId": "lease", "versionId": "1", "name": "...", "tags": [...]}   a library document\n' +
        '  {"file": "contracts/a.docx", "name": "...", "tags": [...]}              a file; a relative path is\n' +
        "                                                                          relative to the manifest's folder\n" +
        'Unknown members and malformed lines are refused before anything is sent (exit 2); a missing file is a\n' +
        'failed line in the report. Library documents need a value for every field they show.\n' +
        'Job ids are stable: a rerun resumes (jobs still known to Redis are not added again; finished renders come from storage).\n' +
        'Exit status: 0 when every document rendered, 1 when any failed, 2 on bad usage, 3 when Redis does not\n' +
        'answer or no worker runs (what was queued stays queued: run it again to resume).',
    )
    .action(async (source: string, flags: RerenderFlags) => {
      const config = loadConfig();
      // What to render is checked first: a typo in a path is named before any missing Redis.
      const tags = flags.tags ? ((await readJson(flags.tags)) as TagInput[]) : undefined;
      const items = await collect(source, config, tags);
      if (items.length === 0) throw new UsageError(`nothing to render in ${source}`);
      const redisUrl = await resolveRedisUrl(config);
      if (!redisUrl) throw new UsageError('no Redis: set REDIS_URL, or run "docpipe start" first');
      const outDir = flags.outDir === undefined ? undefined : resolve(flags.outDir);
      if (outDir) await mkdir(outDir, { recursive: true });
      const storage = openStorage(config);
      const client = await connectClient(config, redisUrl).catch((err: Error) => {
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
      const refused = items.filter((i) => i.failure);
      const toSend = items.filter((i) => !i.failure);
      let failed = refused.length;
      bar.start(items.length, refused.length, { rate: '0.0', failed });
      let sent: BatchOutcome[] = [];
      try {
        if (toSend.length > 0)
          sent = await client.renderEach(
            toSend.map((i) => ({ document: i.document, jobId: i.jobId })),
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
      const outcomes = items.map((item): BatchOutcome =>
        item.failure
          ? { ok: false, failure: item.failure, resumed: false }
          : sent[toSend.indexOf(item)]!,
      );
      const report = summarize(items, outcomes, Date.now() - started, storage);
      if (outDir) await copyOut(report, items, storage, outDir);
      if (flags.json) printJson(report, true);
      else printSummary(report, outDir);
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
  if ((await stat(path)).isFile()) return fromManifest(path, tags, config);
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
        items.push({
          label: folder.id,
          outName: folder.id,
          document,
          jobId: stableId(document, version.bytes),
        });
        continue;
      }
      // A library folder's documents are templates: strict, as the configured library's are.
      const document: DocumentInput = {
        name: folder.name,
        content: await readFile(folder.template),
        tags: values,
        options: { ...folder.options, strict: true },
      };
      items.push({ label: folder.id, outName: folder.id, document, jobId: stableId(document) });
    }
    return items;
  }
  const files = (await walk(path)).filter((f) => !/\.(md|tsv)$/i.test(f));
  const items: Item[] = [];
  // One at a time: a folder of large files never holds more than it must at once in reads.
  for (const file of files)
    items.push(await fileItem(file, file, withoutExtension(relative(path, file)), tags, config));
  return items;
}

/** A file to render, or a failed line when it is missing or past the size limit. */
async function fileItem(
  file: string,
  label: string,
  outName: string,
  tags: TagInput[] | undefined,
  config: DocpipeConfig,
): Promise<Item> {
  const name = basename(file);
  // Short when under the working folder, absolute when not (no ../../ chains).
  const fromHere = relative(process.cwd(), label);
  const shown = fromHere && !fromHere.startsWith('..') ? fromHere : label;
  let content: Buffer | TooLargeInput | undefined;
  try {
    content = await readInput(file, config.limits.maxInputBytes);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const failure: Failure = {
      error: 'validation-failed',
      details: [{ field: 'file', message: err.message }],
    };
    return { label: shown, outName, document: { name, tags }, jobId: '', failure };
  }
  if (content instanceof TooLargeInput) {
    const failure = content.toError('documents[0]').toFailure();
    return { label: shown, outName, document: { name, tags }, jobId: '', failure };
  }
  const document: DocumentInput = { name, content, tags };
  return { label: shown, outName, document, jobId: stableId(document) };
}

function withoutExtension(path: string): string {
  const ext = extname(path);
  return ext ? path.slice(0, -ext.length) : path;
}

const MANIFEST_MEMBERS = new Set(['documentId', 'versionId', 'file', 'name', 'tags']);

interface ManifestEntry {
  documentId?: string;
  versionId?: string;
  file?: string;
  name?: string;
  tags?: TagInput[];
}

/** Every problem of one manifest line; none means the entry is sound. */
function entryProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return ['is not a JSON object'];
  const e = entry as Record<string, unknown>;
  const problems = Object.keys(e)
    .filter((k) => !MANIFEST_MEMBERS.has(k))
    .map((k) => `unknown member "${k}" (known: ${[...MANIFEST_MEMBERS].join(', ')})`);
  for (const key of ['documentId', 'versionId', 'file', 'name'])
    if (key in e && typeof e[key] !== 'string') problems.push(`"${key}" must be a string`);
  if ('tags' in e && !Array.isArray(e.tags)) problems.push('"tags" must be an array');
  if ('documentId' in e === 'file' in e) problems.push('needs "documentId" or "file", not both');
  if ('versionId' in e && !('documentId' in e)) problems.push('"versionId" needs "documentId"');
  return problems;
}

/** Most manifest problems listed before the rest are counted: enough to fix, not a flood. */
const MAX_LISTED_PROBLEMS = 20;

async function fromManifest(
  file: string,
  tags: TagInput[] | undefined,
  config: DocpipeConfig,
): Promise<Item[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const entries: { line: number; entry: ManifestEntry }[] = [];
  const problems: string[] = [];
  for (const [n, text] of lines.entries()) {
    if (text.trim() === '') continue;
    const where = `${file}:${n + 1}`;
    let entry: unknown;
    try {
      entry = parseJson(text, where);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    problems.push(...entryProblems(entry).map((p) => `${where}: ${p}`));
    entries.push({ line: n + 1, entry: entry as ManifestEntry });
  }
  if (problems.length > 0) {
    const more = problems.length - MAX_LISTED_PROBLEMS;
    throw new UsageError(
      `${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was sent:\n  ` +
        problems.slice(0, MAX_LISTED_PROBLEMS).join('\n  ') +
        (more > 0 ? `\n  ...and ${more} more` : ''),
    );
  }
  const items: Item[] = [];
  for (const { entry } of entries) {
    const values = entry.tags ?? tags;
    if (entry.documentId !== undefined) {
      const document: DocumentInput = {
        name: entry.name ?? entry.documentId,
        documentId: entry.documentId,
        versionId: entry.versionId,
        tags: values,
      };
      items.push({
        label: entry.documentId,
        outName: entry.documentId,
        document,
        jobId: stableId(document),
      });
      continue;
    }
    // Relative paths are relative to the manifest, so a manifest and its files move together.
    const path = resolve(dirname(file), entry.file!);
    const item = await fileItem(path, entry.file!, withoutExtension(entry.file!), values, config);
    if (entry.name !== undefined) item.document.name = entry.name;
    if (!item.failure) item.jobId = stableId(item.document);
    items.push({ ...item, label: entry.file! });
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
  /** By the real reason: a sniff reason (`encrypted`, `damaged`) or else the failure's slug. */
  failedByReason: Record<string, number>;
  seconds: number;
  documents: {
    document: string;
    ok: boolean;
    key?: string;
    /** The stored PDF's absolute path. */
    path?: string;
    /** Its copy under --out-dir. */
    out?: string;
    pages?: number;
    cached?: boolean;
    resumed?: boolean;
    error?: string;
    reason?: string;
    message?: string;
  }[];
}

function summarize(
  items: Item[],
  outcomes: BatchOutcome[],
  ms: number,
  storage: LocalStorage,
): Report {
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
      const reason = failureReason(o.failure);
      report.failedByReason[reason] = (report.failedByReason[reason] ?? 0) + 1;
      report.documents.push({
        document,
        ok: false,
        error: o.failure.error,
        reason,
        message: failureText(o.failure),
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
        path: storage.pathOf(o.result.result.key),
        pages: o.result.result.pages,
        cached: o.result.result.cached,
        ...(o.resumed ? { resumed: true } : {}),
      });
    }
  });
  return report;
}

/**
 * Copies each PDF into the output folder under its document's name (a library id, or a file's
 * path inside the source without its extension); names that meet get -2, -3, ... A name never
 * leaves the folder: `..` and leading slashes are dropped.
 */
async function copyOut(
  report: Report,
  items: Item[],
  storage: LocalStorage,
  outDir: string,
): Promise<void> {
  const taken = new Set<string>();
  for (const [i, doc] of report.documents.entries()) {
    if (!doc.key) continue;
    const safe = items[i]!.outName.split(/[\\/]+/)
      .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
      .join('/');
    const base = safe || 'document';
    let name = `${base}.pdf`;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}.pdf`;
    taken.add(name);
    const out = join(outDir, name);
    const pdf = await storage.get(doc.key);
    if (!pdf) throw new Error(`the stored PDF ${storage.pathOf(doc.key)} is gone`);
    await mkdir(dirname(out), { recursive: true });
    await writeAtomically(out, pdf);
    doc.out = out;
  }
}

function printSummary(r: Report, outDir: string | undefined): void {
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
