import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import type { TagInput } from '../../src/document/values/index.js';
import { FolderLibrary, resolveTemplate } from '../../src/document/library/index.js';
import { DocpipeClient, type DocumentJobResult } from '../../src/jobs/queue/index.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { docpipeAsync, docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { pdfText } from '../helpers/pdf-text.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { closeSharedParts } from '../helpers/shared-command-parts.js';

// The in-process commands share one office and one prepare thread for the file
// (test/helpers/shared-command-parts.ts); the spawned render starts and closes its own.
vi.mock(import('../../src/surfaces/cli/command-office.js'), async (original) =>
  (await import('../helpers/shared-command-parts.js')).sharingOffices(await original()),
);
vi.mock(import('../../src/app/parts/index.js'), async (original) =>
  (await import('../helpers/shared-command-parts.js')).sharingPreparers(await original()),
);

/**
 * One template and one set of values give one document, whichever door they enter by: `docpipe
 * render`, `docpipe enqueue` (a file, a library id), `docpipe rerender` (a copy of the library, a
 * manifest by file and by id), DocpipeClient (a resolved template, a library id) and HTTP (the
 * library's fields). Each door must honour the template's document.json: nda writes its tags
 * `{{ }}` and its dates "D MMMM YYYY" in English; quote declares its amounts "#,##0.00" and its
 * dates "D MMMM YYYY", which its fixture's values do not say.
 */

const templates = join(projectRoot(), 'templates');
const data = mkdtempSync(join(tmpdir(), 'docpipe-template-doors-'));
/** The library `docpipe start` serves: a copy, so that a test can add a document to it. */
const library = join(data, 'library');
const out = join(data, 'out');
/**
 * The records' PostgreSQL: the worker's test server (test/helpers/postgres.ts), not an embedded
 * one in the data folder, whose first start (initdb) took seconds of two cores; these doors are
 * about templates, and the records only hold the HTTP door's key.
 */
let records: TestDatabase;
let env: NodeJS.ProcessEnv;
let started: StartedDocpipe;
let client: DocpipeClient;

/** Each template with its fixture, and words only its document.json's settings produce. */
const CASES = [
  { id: 'nda', fixture: 'mutual', shows: ['This Agreement is made on 3 March 2025 between:'] },
  { id: 'quote', fixture: 'domestic-vat', shows: ['30 October 2025', '38,400.00'] },
] as const;

const fixture = (id: string, name: string) => join(library, id, 'fixtures', `${name}.tags.json`);
const tagsOf = (id: string, name: string) =>
  JSON.parse(readFileSync(fixture(id, name), 'utf8')) as TagInput[];

/** The reference: `docpipe render` of the template file, as a template author runs it. */
const rendered = new Map<string, string>();

interface Report {
  failed: number;
  documents: { document: string; ok: boolean; out?: string; path?: string; message?: string }[];
}
const report = (stdout: string) => JSON.parse(stdout) as Report;
let rerendered: Report;
let listed: Report;
let apiKey: string;

/**
 * A docpipe command run in this process (test/helpers/cli-in-process.ts): spawning the built CLI
 * loaded the whole program, and for render LibreOffice, again for each. `docpipe start` and the
 * first render stay real processes.
 */
function docpipe(...args: string[]) {
  return docpipeInProcess({ ...env, REDIS_URL: undefined }, ...args);
}

function succeeded<R extends { status: number | null; stdout: string; stderr: string }>(
  args: string[],
  r: R,
): R {
  if (r.status !== 0)
    throw new Error(`docpipe ${args.join(' ')}: ${r.status}\n${r.stdout}${r.stderr}`);
  return r;
}

async function run(...args: string[]) {
  return succeeded(args, await docpipe(...args));
}

function textOf(file: string): string {
  return pdfText(readFileSync(file));
}

function storedText(result: DocumentJobResult): string {
  if (result.kind !== 'rendered') throw new Error(`not rendered: ${JSON.stringify(result)}`);
  return textOf(join(data, 'storage', result.result.key));
}

beforeAll(async () => {
  mkdirSync(out);
  for (const id of ['nda', 'quote', 'welcome-letter'])
    cpSync(join(templates, id), join(library, id), { recursive: true });
  records = await testDatabase();
  env = docpipeEnv(data, { DOCPIPE_TEMPLATES_DIR: library, DATABASE_URL: records.url });
  started = new StartedDocpipe(env);
  // The renders need no docpipe start: they run while it starts.
  const up = started.waitFor('docpipe started');
  up.catch(() => undefined);
  for (const [i, { id, fixture: name, shows }] of CASES.entries()) {
    const pdf = join(out, `${id}-render.pdf`);
    const args = ['render', join(library, id, 'template.docx'), '--tags', fixture(id, name)];
    // The built CLI once, as a template author runs it; the file's other commands in-process.
    if (i === 0) succeeded(args, await docpipeAsync(env, ...args, '--out', pdf));
    else await run(...args, '--out', pdf);
    const text = textOf(pdf);
    for (const words of shows) expect(text).toContain(words);
    rendered.set(id, text);
  }
  await up;
  client = await DocpipeClient.connect({
    redisUrl: readFileSync(join(data, 'redis.url'), 'utf8').trim(),
  });
  // The batch doors, each run once for every template: a copy of the library (each document
  // with its first fixture), and a manifest with a line by file and one by id for each.
  const copy = join(data, 'copy');
  for (const { id } of CASES) cpSync(join(library, id), join(copy, id), { recursive: true });
  rerendered = report(
    (await run('rerender', copy, '--out-dir', join(out, 'copy'), '--json')).stdout,
  );
  const manifest = join(data, 'manifest.jsonl');
  writeFileSync(
    manifest,
    CASES.flatMap(({ id, fixture: name }) => [
      { file: `library/${id}/template.docx`, tags: tagsOf(id, name) },
      { documentId: id, tags: tagsOf(id, name) },
    ])
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
  listed = report(
    (await run('rerender', manifest, '--out-dir', join(out, 'manifest'), '--json')).stdout,
  );
  const owner = await addKeyOwner(records.db, 'acme');
  apiKey = (
    JSON.parse(
      (
        await run(
          'keys',
          'create',
          '--company',
          'acme',
          '--user',
          owner.email,
          '--name',
          'doors',
          '--json',
        )
      ).stdout,
    ) as { key: string }
  ).key;
}, 300_000);

afterAll(async () => {
  await closeSharedParts();
  await client?.close();
  await started?.killAll();
  await records?.close();
  rmSync(data, { recursive: true, force: true });
});

describe.each(CASES)('$id through every door', ({ id, fixture: name }) => {
  it('docpipe enqueue of the template file', async () => {
    const pdf = join(out, `${id}-enqueue.pdf`);
    await run(
      'enqueue',
      join(library, id, 'template.docx'),
      '--tags',
      fixture(id, name),
      '-o',
      pdf,
    );
    expect(textOf(pdf)).toBe(rendered.get(id));
  });

  it('docpipe enqueue of its library id', async () => {
    const pdf = join(out, `${id}-library.pdf`);
    await run('enqueue', '--library', id, '--tags', fixture(id, name), '-o', pdf);
    expect(textOf(pdf)).toBe(rendered.get(id));
  });

  it('docpipe rerender of a copy of the library (not the configured one)', () => {
    const doc = rerendered.documents.find((d) => d.document === id)!;
    expect(doc).toMatchObject({ ok: true });
    expect(textOf(doc.out!)).toBe(rendered.get(id));
  });

  it('docpipe rerender of a manifest, by file and by library id', () => {
    const lines = listed.documents.filter(
      (d) => d.document === id || d.document.includes(`/${id}/`),
    );
    expect(lines.map((d) => d.ok)).toEqual([true, true]);
    expect(lines.map((d) => textOf(d.out!))).toEqual([rendered.get(id), rendered.get(id)]);
  });

  it('DocpipeClient with the template resolved from its folder', async () => {
    const template = await resolveTemplate({ path: join(library, id) });
    const result = await client.render({ name: id, template, tags: tagsOf(id, name) });
    expect(storedText(result)).toBe(rendered.get(id));
  });

  it('DocpipeClient with the template resolved from the library', async () => {
    const template = await resolveTemplate(
      { documentId: id },
      { library: new FolderLibrary(library) },
    );
    const result = await client.render({ name: id, template, tags: tagsOf(id, name) });
    expect(storedText(result)).toBe(rendered.get(id));
  });

  it('HTTP: the library document’s fields, typed and formatted as its document.json declares', async () => {
    const http = /"http":"([^"]+)"/.exec(started.log)![1]!;
    const reply = await fetch(`${http}/v3/api/documents/${id}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(reply.status).toBe(200);
    const { document } = (await reply.json()) as {
      document: { fields: { tag: string; type?: string; format?: string }[] };
    };
    const declared = (
      JSON.parse(readFileSync(join(library, id, 'document.json'), 'utf8')) as {
        fields: Record<string, { type: string; format?: string }>;
      }
    ).fields;
    const shown = Object.fromEntries(
      document.fields.map(({ tag, type, format }) => [tag, { type, format }]),
    );
    // Every declared field, as declared (a list's columns show beside it as fields of their own).
    expect(Object.keys(declared).filter((tag) => !(tag in shown))).toEqual([]);
    for (const [tag, { type, format }] of Object.entries(declared))
      expect(shown[tag], tag).toEqual({ type, format });
  });
});

describe('DocpipeClient’s own options', () => {
  it('takes delimiters written "{{ }}", as the CLI and document.json do', async () => {
    const pdf = join(out, 'welcome-render.pdf');
    const tags = fixture('welcome-letter', 'remote');
    await run(
      'render',
      join(library, 'welcome-letter', 'template.docx'),
      '--tags',
      tags,
      '--out',
      pdf,
    );
    const result = await client.render({
      name: 'welcome',
      content: readFileSync(join(library, 'welcome-letter', 'template.docx')),
      tags: tagsOf('welcome-letter', 'remote'),
      options: { delimiters: '{{ }}', locale: 'en' },
    });
    expect(storedText(result)).toBe(textOf(pdf));
  });
});

describe('a rerun', () => {
  it('tries again what failed before, and reports that try once', async () => {
    const manifest = join(data, 'manifest-late.jsonl');
    writeFileSync(
      manifest,
      `${JSON.stringify({ documentId: 'late', tags: tagsOf('nda', 'mutual') })}\n`,
    );
    const first = await docpipe('rerender', manifest, '--json');
    expect(first.status).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      failed: 1,
      documents: [{ ok: false, error: 'document-not-found' }],
    });
    // The library gets the document; the same manifest, run again, renders it.
    cpSync(join(library, 'nda'), join(library, 'late'), { recursive: true });
    const second = await docpipe('rerender', manifest, '--json');
    expect(second.status).toBe(0);
    const report = JSON.parse(second.stdout) as {
      failed: number;
      fromEarlierRun: number;
      documents: { ok: boolean; path: string }[];
    };
    expect(report).toMatchObject({ failed: 0, fromEarlierRun: 0, documents: [{ ok: true }] });
    expect(textOf(report.documents[0]!.path)).toBe(rendered.get('nda'));
  });
});
