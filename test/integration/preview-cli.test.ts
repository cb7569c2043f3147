import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { MARK_FILL } from '../../src/authoring/preview/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { buildFontDocx, defaultsIn, fontRun } from '../helpers/fidelity-docx.js';
import { docpipeInProcessAt } from '../helpers/cli-in-process.js';
import { closeSharedParts } from '../helpers/shared-command-parts.js';
import { testDir } from '../helpers/test-dir.js';

// The in-process runs share one office and one prepare thread for the file
// (test/helpers/shared-command-parts.ts); the spawned run starts and closes its own.
vi.mock(import('../../src/surfaces/cli/command-office.js'), async (original) =>
  (await import('../helpers/shared-command-parts.js')).sharingOffices(await original()),
);
vi.mock(import('../../src/app/parts/index.js'), async (original) =>
  (await import('../helpers/shared-command-parts.js')).sharingPreparers(await original()),
);
afterAll(closeSharedParts);

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const lease = join(root, 'templates', 'lease');
const leaseTags = join(lease, 'fixtures', 'basic.tags.json');
/** The lease is two pages, filled or not (test/helpers/lease.ts). */
const LEASE_PAGES = 2;

const envIn = (cwd: string) => ({
  DOCPIPE_ENGINE_THREADS: '1',
  DOCPIPE_DATA_DIR: join(cwd, 'data'),
});

/** The built CLI in `cwd` with its own data folder, as an author runs it in a folder of theirs. */
function spawned(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd,
    env: { ...process.env, ...envIn(cwd) },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same command run in this process (test/helpers/cli-in-process.ts), in `cwd`: each spawn
 * loaded the program and started LibreOffice again, for a page or two.
 */
function docpipe(cwd: string, ...args: string[]) {
  return docpipeInProcessAt(cwd, envIn(cwd), ...args);
}

const rgb = (hex: string): [number, number, number] => [
  parseInt(hex.slice(0, 2), 16),
  parseInt(hex.slice(2, 4), 16),
  parseInt(hex.slice(4, 6), 16),
];

/** Pixels of a page image within a few levels of a mark's colour. */
function pixelsOf(file: string, hex: string): number {
  const png = PNG.sync.read(readFileSync(file));
  const [r, g, b] = rgb(hex);
  let count = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const d = png.data;
    if (Math.abs(d[i]! - r) <= 8 && Math.abs(d[i + 1]! - g) <= 8 && Math.abs(d[i + 2]! - b) <= 8)
      count++;
  }
  return count;
}

const lines = (text: string) => text.trim().split('\n');

/** Files under the data folder's storage: a preview leaves none. */
const stored = (cwd: string): string[] =>
  existsSync(join(cwd, 'data', 'storage'))
    ? readdirSync(join(cwd, 'data', 'storage'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

const segoeReplacement = execFileSync('fc-match', ['-f', '%{family[0]}', 'Segoe UI'], {
  encoding: 'utf8',
});

/** Calibri by the defaults (Carlito draws it: metric-compatible), one run in Segoe UI (not). */
const fontTemplate = buildFontDocx({
  body: para('Dear {name},') + para(fontRun('Segoe UI', 'Signature and date')),
  theme: { major: 'Calibri Light', minor: 'Calibri' },
  styles: defaultsIn('w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"'),
  fontTable: ['Calibri', 'Calibri Light', 'Segoe UI'],
});

describe('docpipe preview (LibreOffice and pdftoppm)', () => {
  it('shades every tag of the lease in place, in <name>-preview/, and removes stale pages', () => {
    const cwd = testDir('docpipe-preview-');
    const out = join(cwd, 'lease-preview');
    mkdirSync(out);
    writeFileSync(join(out, 'page-3.png'), 'from a longer preview');
    writeFileSync(join(out, 'notes.txt'), 'the author’s own');

    // The built CLI once, as an author runs it; the file's other runs in-process.
    const r = spawned(cwd, 'preview', lease);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const printed = lines(r.stdout);
    expect(printed).toEqual(
      Array.from({ length: LEASE_PAGES }, (_, i) => join('lease-preview', `page-${i + 1}.png`)),
    );
    for (const file of printed) expect(existsSync(join(cwd, file))).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['notes.txt', 'page-1.png', 'page-2.png']);

    // The header's {contract_no} is on every page; the sections (§ 6, § 8) are on page 2.
    for (const file of printed)
      expect(pixelsOf(join(cwd, file), MARK_FILL.value)).toBeGreaterThan(0);
    const second = join(cwd, printed[1]!);
    expect(pixelsOf(second, MARK_FILL.section)).toBeGreaterThan(0);
    expect(pixelsOf(second, MARK_FILL.inverted)).toBeGreaterThan(0);
    const png = PNG.sync.read(readFileSync(second));
    // A4 at the default 96 dpi: 794 x 1123 pixels.
    expect([png.width, png.height]).toEqual([794, 1123]);
    expect(stored(cwd)).toEqual([]);
  });

  it('fills the lease with --tags: the same pages with no shading, listed with --json', async () => {
    const cwd = testDir('docpipe-preview-');
    const r = await docpipe(
      cwd,
      'preview',
      join(lease, 'template.docx'),
      '--tags',
      leaseTags,
      '--out',
      'filled',
      '--json',
      '--dpi',
      '72',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { pages: number; files: string[] };
    expect(result.pages).toBe(LEASE_PAGES);
    expect(result.files).toEqual(
      Array.from({ length: LEASE_PAGES }, (_, i) => join(cwd, 'filled', `page-${i + 1}.png`)),
    );
    for (const file of result.files) {
      expect(isAbsolute(file)).toBe(true);
      for (const fill of Object.values(MARK_FILL)) expect(pixelsOf(file, fill)).toBe(0);
    }
    // 72 dpi: A4 is 595.3 x 841.9 points, one pixel each, rounded up.
    const png = PNG.sync.read(readFileSync(result.files[0]!));
    expect([png.width, png.height]).toEqual([596, 842]);
    expect(stored(cwd)).toEqual([]);
    expect(result).toEqual({ pages: LEASE_PAGES, files: result.files, notices: expect.any(Array) });
  });

  it('reports the render’s notices as check does: stderr without the metric-compatible one, --json with all', async () => {
    const cwd = testDir('docpipe-preview-');
    const template = join(cwd, 'letter.docx');
    writeFileSync(template, fontTemplate);
    const tags = join(cwd, 'tags.json');
    writeFileSync(tags, JSON.stringify([{ tag: 'name', value: 'Åse', type: 'text' }]));
    const segoe = `font "Segoe UI" is not installed; LibreOffice used ${segoeReplacement}, which is not metric-compatible: install the font or choose another`;

    for (const args of [['--tags', tags], []]) {
      const r = await docpipe(cwd, 'preview', template, ...args);
      expect(r.status).toBe(0);
      expect(lines(r.stdout)).toEqual([join('letter-preview', 'page-1.png')]);
      expect(r.stderr).toBe(`notice font-substituted: ${segoe}\n`);
    }

    const json = await docpipe(cwd, 'preview', template, '--tags', tags, '--json');
    expect(json.status).toBe(0);
    expect(json.stderr).toBe('');
    const result = JSON.parse(json.stdout) as { notices: { code: string; font: string }[] };
    expect(result.notices.map((n) => [n.code, n.font])).toEqual([
      ['font-substituted', 'Segoe UI'],
      ['font-substituted', 'Calibri'],
    ]);
    // Every preview rendered in a temporary store, removed afterwards.
    expect(stored(cwd)).toEqual([]);
  });

  it('takes the delimiters from the folder’s document.json', async () => {
    const cwd = testDir('docpipe-preview-');
    const folder = join(cwd, 'letter');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'template.docx'),
      buildDocx({ body: para(run('Dear {{first'), run('_name}}, welcome.')) }),
    );
    writeFileSync(join(folder, 'document.json'), JSON.stringify({ delimiters: '{{ }}' }));
    const r = await docpipe(cwd, 'preview', folder);
    expect(r.status).toBe(0);
    expect(lines(r.stdout)).toEqual([join('letter-preview', 'page-1.png')]);
    expect(pixelsOf(join(cwd, 'letter-preview', 'page-1.png'), MARK_FILL.value)).toBeGreaterThan(0);
  });

  it('fails a broken template with its typed failure, as render does, and writes nothing', async () => {
    const cwd = testDir('docpipe-preview-');
    const broken = join(cwd, 'broken.docx');
    writeFileSync(broken, buildDocx({ body: para('Dear {name, see {#vip}') }));
    const r = await docpipe(cwd, 'preview', broken);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)[0]).toBe('document-production-failed');
    expect(r.stderr).toContain('  template: ');
    expect(existsSync(join(cwd, 'broken-preview'))).toBe(false);

    const json = await docpipe(cwd, 'preview', broken, '--json');
    expect(json.status).toBe(1);
    const failure = JSON.parse(json.stdout) as { error: string; details: { field: string }[] };
    expect(failure.error).toBe('document-production-failed');
    expect(failure.details.length).toBeGreaterThanOrEqual(1);
    expect(failure.details.every((d) => d.field === 'template')).toBe(true);
  });

  it('refuses a --dpi out of range as bad usage', async () => {
    const cwd = testDir('docpipe-preview-');
    const r = await docpipe(cwd, 'preview', lease, '--dpi', '1000');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('docpipe: --dpi must be a whole number from 1 to 600 (got 1000)\n');
  });
});
