import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/pool/index.js';
import { corpusDir } from '../helpers/corpus.js';

/**
 * docpipe as a new user meets it: `docpipe start` in one terminal (embedded Redis, local
 * storage), `docpipe enqueue` and `docpipe rerender` in another, then Ctrl-C.
 */
const root = projectRoot();
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
const data = mkdtempSync(join(tmpdir(), 'docpipe-cli-queue-'));
const env = {
  ...process.env,
  DOCPIPE_DATA_DIR: data,
  DOCPIPE_ENGINE_THREADS: '1',
  DOCPIPE_OFFICE_PROCESSES: '1',
};
let start: ChildProcess;
let startLog = '';

function docpipe(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
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
    expect(readFileSync(join(data, 'redis.url'), 'utf8')).toMatch(/^redis:\/\/127\.0\.0\.1:\d+/);
    // JSON logs, one object a line.
    for (const line of startLog.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('enqueues a template with values and answers with the stored PDF', () => {
    const r = docpipe(
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

  it('enqueues a library document by id, and names an unknown one', () => {
    const ok = docpipe('enqueue', '--library', 'welcome-letter', '--json');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    const missing = docpipe('enqueue', '--library', 'no-such-document', '--json');
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: 'document-not-found',
      details: [{ field: 'documents[0].documentId' }],
    });
  });

  it('re-renders the library with a summary; a rerun resumes instead of rendering again', () => {
    const first = docpipe('rerender', 'templates/', '--json');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ total: 2, failed: 0, fromEarlierRun: 0 });
    expect((report.converted as number) + (report.fromCache as number)).toBe(2);
    expect(first.stderr).toContain('rerender |');
    const again = docpipe('rerender', 'templates/', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 2, fromEarlierRun: 2, converted: 0 });
  });

  it('re-renders a folder of files, counting refused ones by reason, with exit status 1', () => {
    const folder = mkdtempSync(join(tmpdir(), 'docpipe-rerender-'));
    mkdirSync(join(folder, 'in'));
    copyFileSync(join(corpusDir(), 'other', 'jodconverter__test.rtf'), join(folder, 'in', 'a.rtf'));
    copyFileSync(
      join(corpusDir(), 'other', 'file-type__fixture.xlsx'),
      join(folder, 'in', 'b.docx'),
    );
    copyFileSync(join(root, 'templates', 'lease', 'template.docx'), join(folder, 'in', 'c.docx'));
    try {
      const r = docpipe('rerender', join(folder, 'in'));
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/3 documents in [\d.]+ s: 1 converted, 0 from cache, 2 failed/);
      expect(r.stdout).toContain('unsupported-file-type: 2');
      expect(r.stdout).toMatch(/FAIL .*b\.docx: unsupported-file-type: spreadsheet/);
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
