import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  batchJobId,
  collectBatch,
  copyBatchOut,
  failureText,
  summarizeBatch,
  type BatchItem,
} from '../../src/jobs/batch/index.js';
import { InputError } from '../../src/base/files/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import {
  JOB_SCHEMA_VERSION,
  jobDataProblems,
  type BatchOutcome,
} from '../../src/jobs/queue/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { rejectionOf } from '../helpers/failure.js';
import { testDir } from '../helpers/test-dir.js';

const templates = join(projectRoot(), 'templates');
const limits = { templatesDir: templates, maxInputBytes: 1000 };

/** The library's documents: its folders holding a template, in name order. */
function libraryFolders(): string[] {
  const ids = readdirSync(templates)
    .filter((id) => existsSync(join(templates, id, 'template.docx')))
    .sort();
  expect(ids.length).toBeGreaterThanOrEqual(10);
  return ids;
}

describe('batch sources', () => {
  it('renders the configured library by reference, with each document’s first fixture', async () => {
    const items = await collectBatch(templates, limits, undefined);
    expect(items.map((i) => i.label)).toEqual(libraryFolders());
    const lease = items.find((i) => i.label === 'lease')!;
    const fixture = JSON.parse(
      readFileSync(join(templates, 'lease/fixtures/basic.tags.json'), 'utf8'),
    ) as unknown;
    expect(lease.document).toMatchObject({ documentId: 'lease', tags: fixture });
    expect(lease.document.content).toBeUndefined();
    expect(lease.jobId).toMatch(/^rerender-[0-9a-f]{40}$/);
  });

  it('sends another folder of templates by content, strict', async () => {
    // Read as files, under the input size limit like any file.
    const items = await collectBatch(
      templates,
      { templatesDir: '/elsewhere', maxInputBytes: 50_000_000 },
      [],
    );
    expect(items.map((i) => i.label)).toEqual(libraryFolders());
    const lease = items.find((i) => i.label === 'lease')!;
    expect(lease.document.content).toEqual(readFileSync(join(templates, 'lease/template.docx')));
    expect(lease.document.options).toMatchObject({ strict: true });
    // Sent by content, a document still carries what its document.json says.
    const nda = items.find((i) => i.label === 'nda')!;
    const settings = JSON.parse(readFileSync(join(templates, 'nda/document.json'), 'utf8')) as {
      locale: string;
      fields: Record<string, unknown>;
    };
    expect(nda.document.options).toMatchObject({
      strict: true,
      locale: settings.locale,
      delimiters: { start: '{{', end: '}}' },
      fields: settings.fields,
    });
  });

  it('reads a folder of files; one past the size limit is a failed line, not read', async () => {
    const dir = testDir('batch-files');
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'small.pdf'), '%PDF-1.7 small');
    writeFileSync(join(dir, 'big.docx'), Buffer.alloc(1001));
    writeFileSync(join(dir, 'README.md'), 'not a document');
    const items = await collectBatch(dir, limits, undefined);
    expect(items.map((i) => [i.outName, i.failure?.error])).toEqual([
      [join('a', 'small'), undefined],
      ['big', 'unsupported-file-type'],
    ]);
    expect(items[1]!.failure!.details[0]!.message).toMatch(/^too-large: more than the limit/);
  });

  it('lists every problem of a manifest at once, with its line, and sends nothing', async () => {
    const dir = testDir('batch-manifest');
    const manifest = join(dir, 'manifest.jsonl');
    writeFileSync(
      manifest,
      [
        '{"documentId":"lease"}',
        '{"file":"a.pdf","documentId":"lease"}',
        'not json',
        '',
        '{"file":"a.pdf","colour":"red","tags":{}}',
      ].join('\n'),
    );
    const err = await rejectionOf(collectBatch(manifest, limits, undefined), InputError);
    expect(err.message.split('\n')).toEqual([
      `${manifest} has 4 problems; nothing was sent:`,
      `  ${manifest}:2: needs "documentId" or "file", not both`,
      expect.stringMatching(new RegExp(`^  ${manifest}:3 is not valid JSON`)),
      `  ${manifest}:5: unknown member "colour" (known: documentId, versionId, file, name, tags)`,
      `  ${manifest}:5: "tags" must be an array`,
    ]);
  });

  it('reads manifest files relative to the manifest; a missing one is a failed line', async () => {
    const dir = testDir('batch-manifest');
    writeFileSync(join(dir, 'a.pdf'), '%PDF-1.7 a');
    const manifest = join(dir, 'manifest.jsonl');
    writeFileSync(manifest, '{"file":"a.pdf","name":"A"}\n{"file":"gone.pdf"}\n');
    const items = await collectBatch(manifest, limits, undefined);
    expect(items.map((i) => [i.label, i.document.name, i.failure?.error])).toEqual([
      ['a.pdf', 'A', undefined],
      ['gone.pdf', 'gone.pdf', 'validation-failed'],
    ]);
    expect(items[1]!.failure!.details[0]!.message).toMatch(/no such file or folder \(ENOENT\)/);
  });
});

describe('batch sources fill each template as render does', () => {
  const roomy = { maxInputBytes: 50_000_000 };

  it('gives a manifest line by file its folder’s document.json', async () => {
    const dir = testDir('batch-manifest');
    const manifest = join(dir, 'manifest.jsonl');
    writeFileSync(
      manifest,
      `${JSON.stringify({ file: join(templates, 'nda', 'template.docx') })}\n`,
    );
    const [nda] = await collectBatch(manifest, { ...limits, ...roomy }, undefined);
    expect(nda!.failure).toBeUndefined();
    const settings = JSON.parse(readFileSync(join(templates, 'nda/document.json'), 'utf8')) as {
      locale: string;
      timeZone: string;
      fields: Record<string, unknown>;
    };
    expect(nda!.document.options).toEqual({
      locale: settings.locale,
      timeZone: settings.timeZone,
      delimiters: { start: '{{', end: '}}' },
      fields: settings.fields,
    });
  });

  it('sends another folder’s templates, declared fields and all, as the job contract takes them', async () => {
    const items = await collectBatch(
      templates,
      { ...limits, ...roomy, templatesDir: '/elsewhere' },
      undefined,
    );
    const declaring = libraryFolders().filter((id) =>
      Object.hasOwn(
        JSON.parse(readFileSync(join(templates, id, 'document.json'), 'utf8')) as object,
        'fields',
      ),
    );
    expect(declaring.length).toBeGreaterThan(0);
    expect(items.filter((i) => i.document.options?.fields).map((i) => i.label)).toEqual(declaring);
    const problems = items.flatMap((item, i) =>
      jobDataProblems({
        v: JOB_SCHEMA_VERSION,
        field: `documents[${i}]`,
        name: item.document.name,
        source: { inline: '' },
        tags: item.document.tags,
        options: item.document.options,
      }),
    );
    expect(problems).toEqual([]);
  });

  it('makes a broken document.json in another folder a failed line', async () => {
    const dir = testDir('batch-broken');
    mkdirSync(join(dir, 'doc'));
    writeFileSync(join(dir, 'doc', 'template.docx'), 'bytes');
    writeFileSync(join(dir, 'doc', 'document.json'), '{"timezone": "UTC"}');
    const [item] = await collectBatch(dir, limits, undefined);
    expect(item!.failure).toMatchObject({ error: 'document-production-failed' });
    expect(failureText(item!.failure!)).toMatch(
      /timezone: unknown member \(did you mean "timeZone"\?\)/,
    );
  });
});

describe('batch failure lines', () => {
  it('name the member a failure is about', () => {
    const line = (field: string, message: string) =>
      failureText({ error: 'validation-failed', details: [{ field, message }] });
    expect(line('documents[3].options.fields', 'unknown field')).toBe(
      'options.fields: unknown field',
    );
    expect(line('documents[3].tags.tenant_name', 'needs a value')).toBe(
      'tenant_name: needs a value',
    );
    // About the document as a whole, or not about the job at all: the message says it.
    expect(line('documents[3]', 'The tag "{x" is not closed')).toBe('The tag "{x" is not closed');
    expect(line('file', 'cannot read a.pdf')).toBe('cannot read a.pdf');
  });
});

describe('batch job ids', () => {
  it('are the same for the same document and differ when anything in it differs', () => {
    const doc = { name: 'a', content: Buffer.from('x'), tags: [] };
    expect(batchJobId(doc)).toBe(batchJobId({ ...doc, content: Buffer.from('x') }));
    expect(batchJobId(doc)).not.toBe(batchJobId({ ...doc, content: Buffer.from('y') }));
    expect(batchJobId(doc)).not.toBe(batchJobId({ ...doc, name: 'b' }));
    const byRef = { name: 'a', documentId: 'lease' };
    expect(batchJobId(byRef, Buffer.from('v1'))).not.toBe(batchJobId(byRef, Buffer.from('v2')));
  });
});

describe('batch report and copies', () => {
  const item = (label: string, outName = label): BatchItem => ({
    label,
    outName,
    document: { name: label },
    jobId: `id-${label}`,
  });
  const rendered = (key: string, cached: boolean, resumed = false): BatchOutcome => ({
    ok: true,
    resumed,
    result: {
      field: 'documents[0]',
      kind: 'rendered',
      result: {
        key,
        type: 'pdf',
        bytes: 3,
        sha256: '',
        pages: 2,
        input: 'docx',
        fonts: [],
        notices: [],
        cached,
        timings: {},
      },
    },
  });

  it('counts each document once, failures by their real reason', () => {
    const storage = new LocalStorage(testDir('batch-report'));
    const items = ['a', 'b', 'c', 'd', 'e'].map((l) => item(l));
    const outcomes: BatchOutcome[] = [
      rendered('renders/aa/a.pdf', false),
      rendered('renders/bb/b.pdf', true),
      rendered('renders/cc/c.pdf', false, true),
      {
        ok: false,
        resumed: false,
        failure: {
          error: 'unsupported-file-type',
          details: [{ field: 'documents[3]', message: 'encrypted: the PDF is encrypted' }],
        },
      },
      {
        ok: false,
        resumed: false,
        failure: {
          error: 'validation-failed',
          details: [{ field: 'documents[4].tags.x', message: 'needs a value' }],
        },
      },
    ];
    const report = summarizeBatch(items, outcomes, 2500, storage);
    expect(report).toMatchObject({
      total: 5,
      converted: 1,
      fromCache: 1,
      fromEarlierRun: 1,
      failed: 2,
      failedByReason: { encrypted: 1, 'validation-failed': 1 },
      seconds: 2.5,
    });
    expect(report.documents[4]).toMatchObject({ ok: false, message: 'x: needs a value' });
    // --json keeps each detail's field path, for a program to read.
    expect(report.documents[4]!.details).toEqual([
      { field: 'documents[4].tags.x', message: 'needs a value' },
    ]);
    expect(report.documents[0]!.path).toBe(storage.pathOf('renders/aa/a.pdf'));
  });

  it('copies PDFs under their names inside the folder; names that meet get -2', async () => {
    const storage = new LocalStorage(testDir('batch-storage'));
    const key = `renders/ab/${'ab'.repeat(32)}.pdf`;
    await storage.put(key, Buffer.from('%PDF-1.7 stored'), 'application/pdf');
    const items = [item('x', '../../etc/passwd'), item('y', 'etc/passwd'), item('z', '..')];
    const outcomes = items.map(() => rendered(key, false));
    const report = summarizeBatch(items, outcomes, 1, storage);
    const out = testDir('batch-out');
    await copyBatchOut(report, items, storage, out);
    expect(report.documents.map((d) => d.out)).toEqual([
      join(out, 'etc/passwd.pdf'),
      join(out, 'etc/passwd-2.pdf'),
      join(out, 'document.pdf'),
    ]);
    expect(readFileSync(join(out, 'etc/passwd-2.pdf'), 'utf8')).toBe('%PDF-1.7 stored');
  });
});
