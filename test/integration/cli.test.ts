import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDir } from '../helpers/test-dir.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { corpusDir } from '../helpers/corpus.js';

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const corpus = corpusDir();
const lease = join(root, 'templates', 'lease');

/** A docpipe command run in this process (test/helpers/cli-in-process.ts), with `env` over ours. */
function docpipeWith(env: Record<string, string>, ...args: string[]) {
  return docpipeInProcess({ DOCPIPE_ENGINE_THREADS: '1', ...env }, ...args);
}

const docpipe = (...args: string[]) => docpipeWith({}, ...args);

/** The built CLI in a process of its own: what only the binary shows (its help, its exit). */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, DOCPIPE_ENGINE_THREADS: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('docpipe CLI', () => {
  it.each([[], ['sniff'], ['fields'], ['render'], ['check']])(
    'prints help for %j',
    async (...command) => {
      // The binary's own help once; each command's help in-process.
      const r = command.length === 0 ? spawned('--help') : await docpipe(...command, '--help');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: docpipe');
      expect(r.stdout).toContain('Exit status');
    },
  );

  it('sniffs files: one line each, JSON with file, kind and reason, exit 1 when any is unsupported', async () => {
    const files = ['docx/mammoth__tables.docx', 'pdf/gotenberg__pages_12.pdf'].map((f) =>
      join(corpus, f),
    );
    const ok = await docpipe('sniff', ...files);
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split('\n')).toHaveLength(2);

    const mixed = await docpipe(
      'sniff',
      '--json',
      files[0]!,
      join(corpus, 'pdf/tika__testPDF_protected.pdf'),
    );
    expect(mixed.status).toBe(1);
    const lines = mixed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      { file: files[0], kind: 'docx', reason: null, mainPart: 'word/document.xml', strict: false },
      expect.objectContaining({
        file: join(corpus, 'pdf/tika__testPDF_protected.pdf'),
        kind: 'unsupported',
        reason: 'encrypted',
      }),
    ]);
  });

  it('exits 2 on bad usage: unknown command or option, missing file, invalid JSON', async () => {
    const unknown = spawned('webhook');
    expect(unknown.status).toBe(2);
    // The error, the suggestion and where help is, not the whole help after it.
    expect(unknown.stderr).toContain("error: unknown command 'webhook'");
    expect(unknown.stderr).toContain('webhooks');
    expect(unknown.stderr).toContain('docpipe --help');
    expect(unknown.stderr).not.toContain('Exit status:');
    expect(unknown.stderr.split('\n').filter((l) => l.trim()).length).toBeLessThanOrEqual(3);
    expect((await docpipe('sniff', '--bogus', 'x')).status).toBe(2);
    const missing = await docpipe('sniff', '/no/such/file.docx');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read /no/such/file.docx');
    const dir = testDir('docpipe-cli-');
    writeFileSync(join(dir, 'bad.json'), '{not json');
    expect(
      (
        await docpipe(
          'render',
          join(lease, 'template.docx'),
          '--tags',
          join(dir, 'bad.json'),
          '--out',
          join(dir, 'o.docx'),
        )
      ).status,
    ).toBe(2);
    expect(
      (await docpipe('render', join(lease, 'template.docx'), '--out', join(dir, 'o.txt'))).status,
    ).toBe(2);
  });

  it('lists fields as a table and as JSON', async () => {
    const table = await docpipe('fields', join(lease, 'template.docx'));
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/monthly_rent\s+placeholder\s+1\s+body/);
    const json = JSON.parse(
      (await docpipe('fields', '--json', join(lease, 'template.docx'))).stdout,
    ) as {
      tag: string;
      kind: string;
    }[];
    expect(json.map((f) => f.tag)).toContain('has_guarantor');
    expect(json.find((f) => f.tag === 'has_guarantor')?.kind).toBe('section');
  });

  it('reports a broken template with exit 1 and every error', async () => {
    const r = await docpipe(
      'fields',
      '--json',
      join(corpus, 'templates/docxtemplater__multiple-unclosed.docx'),
    );
    expect(r.status).toBe(1);
    const failure = JSON.parse(r.stdout) as {
      error: string;
      details: { field: string; message: string }[];
    };
    expect(failure.error).toBe('document-production-failed');
    expect(failure.details.map((d) => d.message).join('\n')).toMatch(/firstName[\s\S]*lastName/);
  });

  it('renders a template to .docx, and returns typed failures as JSON', async () => {
    const dir = testDir('docpipe-cli-');
    const out = join(dir, 'lease.docx');
    const r = await docpipe(
      'render',
      join(lease, 'template.docx'),
      '--tags',
      join(lease, 'fixtures/basic.tags.json'),
      '--out',
      out,
      '--json',
    );
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { out: string; bytes: number; sha256: string };
    expect(result).toMatchObject({ out, type: 'docx', bytes: readFileSync(out).length });
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(documentText(readFileSync(out))[0]?.text).toContain('fastsat til 9.850,00 kr.');

    writeFileSync(
      join(dir, 'tags.json'),
      JSON.stringify([{ tag: 'start_date', value: '31-12-2025', type: 'date' }]),
    );
    const bad = await docpipe(
      'render',
      join(lease, 'template.docx'),
      '--tags',
      join(dir, 'tags.json'),
      '--out',
      join(dir, 'x.docx'),
      '--json',
    );
    expect(bad.status).toBe(1);
    const failure = JSON.parse(bad.stdout) as { error: string; details: { field: string }[] };
    expect(failure.error).toBe('validation-failed');
    expect(failure.details[0]).toEqual({
      field: 'tags[0].value',
      message: expect.stringContaining('ISO 8601'),
    });
    expect(failure.details.map((d) => d.field)).toContain('tags.monthly_rent');
  });

  it('renders to PDF, from cache the second time, and passes a PDF through', async () => {
    const dir = testDir('docpipe-cli-');
    const env = { DOCPIPE_DATA_DIR: join(dir, 'data') };
    const args = [
      'render',
      join(lease, 'template.docx'),
      '--tags',
      join(lease, 'fixtures/basic.tags.json'),
      '--json',
    ];
    const first = await docpipeWith(env, ...args, '--out', join(dir, 'a.pdf'));
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      type: 'pdf',
      pages: 2,
      input: 'docx',
      cached: false,
    });
    expect(readFileSync(join(dir, 'a.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const second = await docpipeWith(env, ...args, '--out', join(dir, 'b.pdf'));
    expect(JSON.parse(second.stdout)).toMatchObject({ cached: true, pages: 2 });
    const given = join(corpus, 'pdf/gotenberg__pages_12.pdf');
    const passed = await docpipeWith(env, 'render', given, '--out', join(dir, 'c.pdf'), '--json');
    expect(JSON.parse(passed.stdout)).toMatchObject({ input: 'pdf', pages: 12 });
    expect(readFileSync(join(dir, 'c.pdf')).equals(readFileSync(given))).toBe(true);
    const refused = await docpipeWith(
      env,
      'render',
      join(corpus, 'pdf/tika__testPDF_protected.pdf'),
      '--out',
      join(dir, 'd.pdf'),
      '--json',
    );
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({
      error: 'unsupported-file-type',
      details: [
        {
          field: 'document',
          message: 'encrypted: PDF is encrypted (its trailer has an /Encrypt entry)',
        },
      ],
    });
  });

  it('checks the library against its fixtures, and fails when the text differs', async () => {
    const ok = await docpipe('check');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('0 failed');

    const dir = testDir('docpipe-check-');
    mkdirSync(join(dir, 'fixtures'));
    copyFileSync(join(lease, 'template.docx'), join(dir, 'template.docx'));
    copyFileSync(join(lease, 'fixtures/basic.tags.json'), join(dir, 'fixtures/basic.tags.json'));
    writeFileSync(
      join(dir, 'fixtures/basic.expected.txt'),
      'fastsat til 9.850,00 kr.\nfastsat til 1.000.000,00 kr.\n',
    );
    const failing = await docpipe('check', dir, '--json');
    expect(failing.status).toBe(1);
    expect(JSON.parse(failing.stdout)).toEqual([
      expect.objectContaining({
        fixture: 'basic',
        ok: false,
        missing: ['fastsat til 1.000.000,00 kr.'],
      }),
    ]);
  });
});
