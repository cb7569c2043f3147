import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { docpipeInProcessAt } from '../helpers/cli-in-process.js';
import { corpusDir } from '../helpers/corpus.js';

/**
 * docpipe as a new user meets it: `docpipe start` in one terminal (embedded Redis, local
 * storage), `docpipe enqueue` and `docpipe rerender` in another, then Ctrl-C.
 */
const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const data = mkdtempSync(join(tmpdir(), 'docpipe-cli-queue-'));
const docpipeVars = {
  DOCPIPE_DATA_DIR: data,
  DOCPIPE_ENGINE_THREADS: '1',
  DOCPIPE_OFFICE_PROCESSES: '1',
  DOCPIPE_HTTP_PORT: '0',
};
const env = { ...process.env, ...docpipeVars };
let start: ChildProcess;
let startLog = '';

/** The built CLI in a process of its own, as the second terminal runs it. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same command run in this process (test/helpers/cli-in-process.ts): loading the whole
 * program again for each of the file's commands cost more than the queue's work. `docpipe start`,
 * one enqueue and the run on another data folder stay real processes.
 */
function docpipe(...args: string[]) {
  return docpipeInProcessAt(root, docpipeVars, ...args);
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} not within ${ms} ms:\n${startLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  start = spawn(process.execPath, [cli, 'start'], { cwd: root, env, stdio: 'pipe' });
  start.stderr!.on('data', (c: Buffer) => (startLog += c.toString()));
  start.stdout!.on('data', (c: Buffer) => (startLog += c.toString()));
  await waitFor(() => startLog.includes('docpipe started'), 60_000, 'docpipe start');
}, 90_000);

afterAll(() => {
  if (start.exitCode === null) start.kill('SIGKILL');
  rmSync(data, { recursive: true, force: true });
});

describe('docpipe start, with enqueue and rerender from a second terminal', () => {
  it('writes down its embedded Redis for the other commands', () => {
    // With the embedded Redis's password: other terminals' commands connect with it.
    expect(readFileSync(join(data, 'redis.url'), 'utf8')).toMatch(
      /^redis:\/\/:[0-9a-f]{64}@127\.0\.0\.1:\d+/,
    );
    // JSON logs, one object a line.
    for (const line of startLog.trim().split('\n'))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('enqueues a template with values and answers with the stored PDF', () => {
    const r = spawned(
      'enqueue',
      'templates/lease/template.docx',
      '--tags',
      'templates/lease/fixtures/basic.tags.json',
      '--json',
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { kind: string; result: { key: string; pages: number } };
    expect(out).toMatchObject({ field: 'documents[0]', kind: 'rendered', result: { pages: 2 } });
    expect(existsSync(join(data, 'storage', out.result.key))).toBe(true);
  });

  it('enqueues a library document by id, and names an unknown one', async () => {
    const ok = await docpipe(
      'enqueue',
      '--library',
      'welcome-letter',
      '--tags',
      'templates/welcome-letter/fixtures/remote.tags.json',
      '--json',
    );
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    const missing = await docpipe('enqueue', '--library', 'no-such-document', '--json');
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: 'document-not-found',
      details: [{ field: 'documents[0].documentId' }],
    });
  });

  it('never produces a library document unfilled: without values, every missing field is named', async () => {
    const fields = JSON.parse(
      (await docpipe('fields', '--json', 'templates/lease/template.docx')).stdout,
    ) as { tag: string; within: string[] }[];
    // Fields inside a section need a value only when the section shows; the rest always do.
    const needed = fields.filter((f) => f.within.length === 0);
    expect(needed).toHaveLength(16);
    const empty = join(data, 'empty.tags.json');
    writeFileSync(empty, '[]');
    for (const tags of [[], ['--tags', empty]]) {
      const r = await docpipe('enqueue', '--library', 'lease', ...tags, '--json');
      expect(r.status).toBe(1);
      const failure = JSON.parse(r.stdout) as { error: string; details: { field: string }[] };
      expect(failure.error).toBe('validation-failed');
      expect(failure.details.map((d) => d.field)).toEqual(
        expect.arrayContaining(needed.map((f) => `documents[0].tags.${f.tag}`)),
      );
      expect(failure.details.map((d) => d.field)).toContain('documents[0].tags.tenant_name');
    }
    // The same rule for a manifest line: a failed line naming the tags, exit 1.
    const manifest = join(data, 'lease.jsonl');
    writeFileSync(manifest, '{"documentId": "lease"}\n');
    const r = await docpipe('rerender', manifest);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('validation-failed: 1');
    expect(r.stdout).toMatch(/FAIL lease: validation-failed: .*tenant_name needs a value/);
  });

  it('copies the PDF where asked, and says where the stored one is', async () => {
    const out = join(data, 'out', 'lease.pdf');
    mkdirSync(join(data, 'out'), { recursive: true });
    const r = await docpipe(
      'enqueue',
      '--library',
      'lease',
      '--tags',
      'templates/lease/fixtures/basic.tags.json',
      '--locale',
      'en',
      '--out',
      out,
      '--json',
    );
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { path: string; out: string; result: { key: string } };
    expect(result.out).toBe(out);
    expect(result.path).toBe(join(data, 'storage', result.result.key));
    expect(readFileSync(out).equals(readFileSync(result.path))).toBe(true);
    // --locale reached the worker: English month names instead of the document's Danish ones.
    const text = spawnSync('pdftotext', [out, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toMatch(
      /January|February|March|April|May|June|July|August|September|October|November|December/,
    );
    const plain = await docpipe(
      'enqueue',
      '--library',
      'lease',
      '--tags',
      'templates/lease/fixtures/basic.tags.json',
    );
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(join(data, 'storage', 'renders'));
  });

  it('enqueue on another data folder than the running start names the folder it searched: exit 2', () => {
    const other = mkdtempSync(join(tmpdir(), 'docpipe-cli-queue-other-'));
    try {
      const r = spawnSync(process.execPath, [cli, 'enqueue', '--library', 'lease', '--json'], {
        encoding: 'utf8',
        cwd: root,
        env: { ...env, DOCPIPE_DATA_DIR: other },
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        `docpipe: no Redis: REDIS_URL is not set, and no "docpipe start" runs on the data folder ${other} ` +
          '(it has no redis.url). Set REDIS_URL, or run "docpipe start" first; to use one that runs on ' +
          'another folder, set DOCPIPE_DATA_DIR to it\n',
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses deeply nested tags and malformed manifests before sending anything: exit 2', async () => {
    const deep = join(data, 'deep.json');
    writeFileSync(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const nested = await docpipe('enqueue', '--library', 'lease', '--tags', deep, '--json');
    expect(nested.status).toBe(2);
    expect(nested.stderr).toContain('more than 64 levels deep');
    const manifest = join(data, 'bad.jsonl');
    writeFileSync(
      manifest,
      [
        '{"documentId": "lease", "tag": []}',
        'not json',
        '{"file": "a.docx", "documentId": "lease"}',
        '{"versionId": "1"}',
      ].join('\n'),
    );
    const r = await docpipe('rerender', manifest);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('has 5 problems; nothing was sent');
    expect(r.stderr).toContain('bad.jsonl:1: unknown member "tag"');
    expect(r.stderr).toContain('bad.jsonl:2 is not valid JSON');
    expect(r.stderr).toContain('bad.jsonl:3: needs "documentId" or "file", not both');
    expect(r.stderr).toContain('bad.jsonl:4: "versionId" needs "documentId"');
  });

  it('re-renders the library with a summary; a rerun resumes instead of rendering again', async () => {
    // One document per library folder: the library grows, so count it.
    const documents = readdirSync(join(root, 'templates')).filter((id) =>
      existsSync(join(root, 'templates', id, 'template.docx')),
    ).length;
    expect(documents).toBeGreaterThanOrEqual(10);
    const first = await docpipe('rerender', 'templates/', '--json');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ total: documents, failed: 0, fromEarlierRun: 0 });
    expect((report.converted as number) + (report.fromCache as number)).toBe(documents);
    expect(first.stderr).toContain('rerender |');
    const again = await docpipe('rerender', 'templates/', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({
      total: documents,
      fromEarlierRun: documents,
      converted: 0,
    });
  });

  it('re-renders a folder of files, counting refused ones by reason, with exit status 1', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'docpipe-rerender-'));
    mkdirSync(join(folder, 'in', 'sub'), { recursive: true });
    copyFileSync(join(corpusDir(), 'other', 'jodconverter__test.rtf'), join(folder, 'in', 'a.rtf'));
    copyFileSync(
      join(corpusDir(), 'other', 'file-type__fixture.xlsx'),
      join(folder, 'in', 'b.docx'),
    );
    copyFileSync(join(root, 'templates', 'lease', 'template.docx'), join(folder, 'in', 'c.docx'));
    copyFileSync(
      join(corpusDir(), 'pdf', 'tika__testPDF_protected.pdf'),
      join(folder, 'in', 'd.pdf'),
    );
    copyFileSync(
      join(root, 'templates', 'lease', 'template.docx'),
      join(folder, 'in', 'sub', 'c.docx'),
    );
    try {
      const r = await docpipe('rerender', join(folder, 'in'), '--out-dir', join(folder, 'out'));
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/5 documents in [\d.]+ s: \d converted, \d from cache, 3 failed/);
      expect(r.stdout).toContain('  rtf: 1\n');
      expect(r.stdout).toContain('  spreadsheet: 1\n');
      expect(r.stdout).toContain('  encrypted: 1\n');
      expect(r.stdout).not.toMatch(/^ {2}unsupported-file-type: \d/m);
      expect(r.stdout).toMatch(/FAIL .*b\.docx: unsupported-file-type: spreadsheet/);
      // Each PDF copied under the document's own path, so equal names in sub-folders stay apart.
      expect(r.stdout).toContain(`PDFs copied to ${join(folder, 'out')}: 2`);
      expect(existsSync(join(folder, 'out', 'c.pdf'))).toBe(true);
      expect(existsSync(join(folder, 'out', 'sub', 'c.pdf'))).toBe(true);
      const json = await docpipe('rerender', join(folder, 'in'), '--json');
      const report = JSON.parse(json.stdout) as {
        failedByReason: Record<string, number>;
        documents: { ok: boolean; path?: string }[];
      };
      expect(report.failedByReason).toEqual({ rtf: 1, spreadsheet: 1, encrypted: 1 });
      const stored = report.documents.filter((d) => d.ok).map((d) => d.path!);
      expect(stored).toHaveLength(2);
      for (const path of stored) expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('reads manifest paths relative to the manifest; a missing file is a failed line', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'docpipe-manifest-'));
    mkdirSync(join(folder, 'docs'));
    copyFileSync(join(root, 'templates', 'lease', 'template.docx'), join(folder, 'docs', 'l.docx'));
    writeFileSync(
      join(folder, 'm.jsonl'),
      '{"file": "docs/l.docx"}\n{"file": "docs/missing.docx"}\n',
    );
    try {
      const r = await docpipe('rerender', join(folder, 'm.jsonl'), '--json');
      expect(r.status).toBe(1);
      const report = JSON.parse(r.stdout) as {
        total: number;
        failed: number;
        documents: { document: string; ok: boolean; error?: string; message?: string }[];
      };
      expect(report).toMatchObject({ total: 2, failed: 1 });
      expect(report.documents).toEqual([
        expect.objectContaining({ document: 'docs/l.docx', ok: true }),
        expect.objectContaining({
          document: 'docs/missing.docx',
          ok: false,
          error: 'validation-failed',
          message: expect.stringContaining('ENOENT'),
        }),
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('stops on SIGINT: exit 0, its Redis gone with it', async () => {
    const redisPid = Number(readFileSync(join(data, 'redis', 'redis.pid'), 'utf8'));
    const exited = new Promise<number | null>((resolve) => start.on('exit', resolve));
    start.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(join(data, 'redis.url'))).toBe(false);
    expect(() => process.kill(redisPid, 0)).toThrow();
    expect(startLog).toContain('"msg":"stopped"');
  }, 60_000);
});
