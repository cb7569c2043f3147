import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocumentJson } from '../../src/document/library/document-json.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { templateFields } from '../../src/document/inspect/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { writeZip, ZipArchive } from '../../src/formats/zip/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The library documents are generated (scripts/make-library.ts) and committed with the script:
 * these tests hold the two together, and hold each document to what the library promises
 * (declared fields, fixtures that show every branch, fonts with metric-compatible stand-ins).
 */

const root = projectRoot();
const script = join(root, 'dist', 'scripts', 'make-library.js');
const templates = join(root, 'templates');

const LIBRARY = [
  'ansaettelseskontrakt',
  'bestyrelsesbeslutning',
  'koebsaftale',
  'nda',
  'power-of-attorney',
  'quote',
  'samtykkeerklaering',
  'tenancy-agreement',
];

/** Word's fonts the documents may name, and the installed font fontconfig must give for each. */
const METRIC_COMPATIBLE: Record<string, string> = {
  Calibri: 'Carlito',
  Cambria: 'Caladea',
  Arial: 'Liberation Sans',
  'Times New Roman': 'Liberation Serif',
};

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function filesUnder(dir: string, relative = ''): string[] {
  return readdirSync(join(dir, relative), { withFileTypes: true })
    .flatMap((e) => {
      const path = relative ? `${relative}/${e.name}` : e.name;
      return e.isDirectory() ? filesUnder(dir, path) : [path];
    })
    .sort();
}

/** Part names in order, and each part's inflated bytes. */
function parts(docx: Buffer): [string, Buffer][] {
  const zip = ZipArchive.open(docx);
  return zip.entries.map((e) => [e.name, zip.read(e)]);
}

function build(): string {
  const out = testDir('library-build-');
  const r = run('--out', out);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return out;
}

/** A copy of the committed library documents (not snapshots), to break on purpose. */
function committedCopy(): string {
  const dir = testDir('library-copy-');
  for (const id of LIBRARY) {
    for (const path of filesUnder(join(templates, id))) {
      if (path.startsWith('snapshots/')) continue;
      cpSync(join(templates, id, path), join(dir, id, path));
    }
  }
  return dir;
}

const documentsOf = (dir: string) => readdirSync(dir).sort();

describe('scripts/make-library.ts', () => {
  it('writes the eight library documents exactly as committed, and the same bytes every time', () => {
    const first = build();
    const second = build();
    expect(documentsOf(first)).toEqual(LIBRARY);
    const files = filesUnder(first);
    // template.docx and document.json per document, and at least two fixtures of two files each.
    expect(files.length).toBeGreaterThanOrEqual(LIBRARY.length * 6);
    expect(filesUnder(second)).toEqual(files);
    for (const path of files) {
      const built = readFileSync(join(first, path));
      expect(readFileSync(join(second, path)).equals(built), path).toBe(true);
      const committed = readFileSync(join(templates, path));
      if (path.endsWith('.docx')) expect(parts(committed), path).toEqual(parts(built));
      else expect(committed.toString('utf8'), path).toBe(built.toString('utf8'));
    }
    // Nothing committed beside the fixtures the script writes (snapshots are check's).
    for (const id of LIBRARY) {
      const committed = filesUnder(join(templates, id)).filter((p) => !p.startsWith('snapshots/'));
      expect(committed.map((p) => `${id}/${p}`)).toEqual(
        files.filter((p) => p.startsWith(`${id}/`)),
      );
    }
  });

  it('--check passes on the committed library', () => {
    const r = run('--check');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/: all \d+ files match scripts\/make-library\.ts\n$/);
  });

  it('--check names every file that differs, is missing or was not written, and exits 1', () => {
    const dir = committedCopy();
    const expected = join(dir, 'quote', 'fixtures', 'domestic-vat.expected.txt');
    writeFileSync(expected, readFileSync(expected, 'utf8').replace('48,000.00', '48,000.01'));
    const docx = join(dir, 'nda', 'template.docx');
    const zip = ZipArchive.open(readFileSync(docx));
    writeFileSync(
      docx,
      writeZip(
        zip.entries.map((e) => ({
          name: e.name,
          data:
            e.name === 'word/header1.xml'
              ? Buffer.from(zip.read(e).toString('utf8').replace('{{company_name}}', '{{company}}'))
              : zip.read(e),
        })),
      ),
    );
    rmSync(join(dir, 'koebsaftale', 'document.json'));
    writeFileSync(join(dir, 'nda', 'fixtures', 'old.tags.json'), '[]\n');

    const r = run('--check', '--out', dir);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      'koebsaftale/document.json: missing',
      'nda/template.docx: parts differ: word/header1.xml',
      'quote/fixtures/domestic-vat.expected.txt: differs',
      'nda/fixtures/old.tags.json: not written by the script',
      `4 file(s) in ${dir} differ from what scripts/make-library.ts writes; run npm run library and commit the result`,
    ]);
  });

  it('--check compares a .docx by its parts, not by how they were deflated', () => {
    const dir = committedCopy();
    const docx = join(dir, 'quote', 'template.docx');
    const zip = ZipArchive.open(readFileSync(docx));
    const stored = writeZip(
      zip.entries.map((e) => ({ name: e.name, data: zip.read(e) })),
      { compress: false },
    );
    expect(stored.equals(readFileSync(docx))).toBe(false);
    writeFileSync(docx, stored);
    const r = run('--check', '--out', dir);
    expect(r.stdout).toMatch(/all \d+ files match/);
    expect(r.status).toBe(0);
  });

  it('writing removes a fixture the script no longer makes, and leaves snapshots alone', () => {
    const dir = committedCopy();
    writeFileSync(join(dir, 'nda', 'fixtures', 'old.expected.txt'), 'gone\n');
    cpSync(join(dir, 'nda', 'document.json'), join(dir, 'nda', 'snapshots', 'mutual.txt'));
    expect(run('--out', dir).status).toBe(0);
    expect(filesUnder(join(dir, 'nda', 'fixtures'))).not.toContain('old.expected.txt');
    expect(filesUnder(join(dir, 'nda', 'snapshots'))).toEqual(['mutual.txt']);
  });

  it('refuses an unknown option with its usage and exit status 2', () => {
    const r = run('--outt', 'x');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--outt'");
    expect(r.stderr).toContain('usage: node dist/scripts/make-library.js [--out dir] [--check]');
  });
});

describe.each(LIBRARY)('library document %s', (id) => {
  const dir = join(templates, id);
  const template = () => readFileSync(join(dir, 'template.docx'));

  it('declares exactly the fields its template uses, list columns included', async () => {
    const { meta, options } = await readDocumentJson(dir);
    const declared = meta.fields ?? {};
    const used = templateFields(template(), { delimiters: options.delimiters });
    const lists = new Set(Object.keys(declared).filter((t) => declared[t]!.type === 'list'));
    const seen = used.map((f) => {
      const list = f.within.find((w) => lists.has(w));
      return list ? `${list}[].${f.tag}` : f.tag;
    });
    const declaredPaths = Object.entries(declared).flatMap(([tag, d]) => [
      tag,
      ...Object.keys(d.columns ?? {}).map((c) => `${tag}[].${c}`),
    ]);
    expect(seen.sort()).toEqual(declaredPaths.sort());
  });

  it('is described in docs/library.md, every field with it', async () => {
    const { meta } = await readDocumentJson(dir);
    const docs = readFileSync(join(root, 'docs', 'library.md'), 'utf8');
    const section = docs.split('\n### ').find((s) => s.startsWith(`${id}\n`));
    expect(section, `docs/library.md has no "### ${id}"`).toBeDefined();
    const paths = Object.entries(meta.fields ?? {}).flatMap(([tag, d]) => [
      tag,
      ...Object.keys(d.columns ?? {}).map((c) => `${tag}[].${c}`),
    ]);
    expect(paths.length).toBeGreaterThan(10);
    const rows = new Set([...section!.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]));
    expect([...rows].sort()).toEqual(paths.sort());
  });

  it('has a sign, a name and a date anchor for each signer its document.json names, in every fixture', async () => {
    const { meta, options } = await readDocumentJson(dir);
    const signers = meta.signers ?? [];
    expect(signers.length, 'document.json names its signers').toBeGreaterThan(0);
    const placed = signers.filter((s) => s.list === undefined).length;
    // Only the board resolution's signers are all a list's rows: a loop cannot hold anchors.
    if (id !== 'bestyrelsesbeslutning') expect(placed).toBeGreaterThanOrEqual(1);
    const want = Array.from({ length: placed }, (_, i) =>
      ['sign', 'name', 'date'].map((kind) => `${kind}:${i + 1}`),
    )
      .flat()
      .sort();
    const fixtures = readdirSync(join(dir, 'fixtures')).filter((f) => f.endsWith('.tags.json'));
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
    for (const file of fixtures) {
      const tags: unknown = JSON.parse(readFileSync(join(dir, 'fixtures', file), 'utf8'));
      const { anchors } = fillTemplate(template(), tags, options);
      expect(anchors.map((a) => `${a.kind}:${a.recipient}`).sort(), file).toEqual(want);
    }
    // Each signer's name is a declared field: a list entry's, a column of its declared list.
    for (const signer of signers) {
      if (signer.name === undefined) continue;
      const declared =
        signer.list === undefined
          ? meta.fields?.[signer.name]
          : meta.fields?.[signer.list]?.columns?.[signer.name];
      expect(declared?.type, `${signer.list ?? ''} ${signer.name}`).toBe('text');
    }
  });

  it('has fixtures that show every conditional section both ways', async () => {
    const { meta, options } = await readDocumentJson(dir);
    const flags = templateFields(template(), { delimiters: options.delimiters })
      .filter((f) => meta.fields?.[f.tag]?.type === 'boolean' && f.kind === 'section')
      .map((f) => f.tag);
    expect(flags.length).toBeGreaterThan(0);
    const fixtures = readdirSync(join(dir, 'fixtures')).filter((f) => f.endsWith('.tags.json'));
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
    const values = new Map(flags.map((flag) => [flag, new Set<unknown>()]));
    for (const file of fixtures) {
      const tags = JSON.parse(readFileSync(join(dir, 'fixtures', file), 'utf8')) as {
        tag: string;
        value: unknown;
      }[];
      for (const t of tags) values.get(t.tag)?.add(t.value);
      const expected = readFileSync(
        join(dir, 'fixtures', file.replace('.tags.json', '.expected.txt')),
        'utf8',
      );
      expect(expected.trim().split('\n').length, file).toBeGreaterThanOrEqual(8);
    }
    for (const [flag, seen] of values) expect([...seen].sort(), flag).toEqual([false, true]);
  });

  it('names only Word fonts that fontconfig maps to metric-compatible fonts', () => {
    const zip = ZipArchive.open(template());
    const fonts = new Set<string>();
    for (const e of zip.entries.filter((e) => e.name.endsWith('.xml'))) {
      const xml = zip.read(e).toString('utf8');
      for (const m of xml.matchAll(/<w:rFonts\b([^>]*)>/g))
        for (const a of m[1]!.matchAll(/w:(?:ascii|hAnsi|cs|eastAsia)="([^"]+)"/g))
          fonts.add(a[1]!);
      for (const m of xml.matchAll(/<a:latin typeface="([^"]*)"/g)) if (m[1]) fonts.add(m[1]);
    }
    expect(fonts.size).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(Object.keys(METRIC_COMPATIBLE), font).toContain(font);
      const match = spawnSync('fc-match', ['-f', '%{family[0]}', font], { encoding: 'utf8' });
      expect(match.stdout, font).toBe(METRIC_COMPATIBLE[font]);
    }
  });

  it('numbers its pages with PAGE and NUMPAGES fields in the footer', async () => {
    const { meta } = await readDocumentJson(dir);
    const footer = ZipArchive.open(template()).read('word/footer1.xml').toString('utf8');
    const words = meta.locale === 'da' ? ['Side ', ' af '] : ['Page ', ' of '];
    const fields = [...footer.matchAll(/<w:instrText[^>]*>([^<]*)</g)].map((m) => m[1]!.trim());
    expect(fields).toEqual(['PAGE', 'NUMPAGES']);
    for (const word of words) expect(footer).toContain(`>${word}<`);
  });
});
