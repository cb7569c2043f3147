import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import type { FixtureOutcome } from '../../src/check/index.js';
import { projectRoot } from '../../src/paths/index.js';
import { decodePng } from '../../src/raster/index.js';
import { testDir } from '../helpers/test-dir.js';

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a process of its own, as an author runs it (asynchronous: vitest keeps time). */
function docpipe(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, DOCPIPE_OFFICE_PROCESSES: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A copy of the library's lease in a folder of its own, with a data folder beside it. */
function leaseCopy(): { lib: string; lease: string; env: Record<string, string>; diffs: string } {
  const dir = testDir('docpipe-check-snap-');
  const lib = join(dir, 'lib');
  const lease = join(lib, 'lease');
  cpSync(join(root, 'templates', 'lease'), lease, { recursive: true });
  // The library's own snapshots (when recorded) are not this test's: it records its own.
  rmSync(join(lease, 'snapshots'), { recursive: true, force: true });
  return {
    lib,
    lease,
    env: { DOCPIPE_DATA_DIR: join(dir, 'data') },
    diffs: join(dir, 'data', 'check'),
  };
}

/** The table's rows: the lines under the heading up to the blank line, not the indented ones. */
function rows(table: string): string[][] {
  const lines = table.split('\n');
  expect(lines[0]).toMatch(/^template\s+fixture\s+pages\s+ms\s+result$/);
  return lines
    .slice(1, lines.indexOf(''))
    .filter((l) => !l.startsWith(' '))
    .map((l) => l.split(/\s+/));
}

function outcomesOf(run: Run): FixtureOutcome[] {
  return JSON.parse(run.stdout) as FixtureOutcome[];
}

/** The template with an empty paragraph after its first: everything below moves down a line. */
function insertEmptyParagraph(template: string): void {
  const zip = new PizZip(readFileSync(template));
  const xml = zip.file('word/document.xml')!.asText();
  const firstEnd = xml.indexOf('</w:p>', xml.indexOf('<w:body>')) + '</w:p>'.length;
  expect(firstEnd).toBeGreaterThan('</w:p>'.length);
  zip.file('word/document.xml', `${xml.slice(0, firstEnd)}<w:p/>${xml.slice(firstEnd)}`);
  writeFileSync(template, zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

const SNAPSHOT_FILES = [
  'basic.p1.png',
  'basic.p2.png',
  'basic.txt',
  'no-guarantor.p1.png',
  'no-guarantor.p2.png',
  'no-guarantor.txt',
];

describe('docpipe check with snapshots (real LibreOffice, real poppler)', () => {
  it('fails without snapshots, records them with --update, then passes', async () => {
    const { lib, lease, env } = leaseCopy();
    const missing = await docpipe(env, 'check', lib);
    expect(missing.status).toBe(1);
    expect(rows(missing.stdout)).toEqual([
      ['lease', 'basic', '2', expect.stringMatching(/^\d+$/), 'FAIL'],
      ['lease', 'no-guarantor', '2', expect.stringMatching(/^\d+$/), 'FAIL'],
    ]);
    const hint = `run "docpipe check --update ${lease}" to record it`;
    expect(missing.stdout).toContain(`    snapshots/basic.txt is missing: ${hint}`);
    expect(missing.stdout).toContain(
      `    no page snapshots (snapshots/no-guarantor.p1.png ...): ${hint}`,
    );
    expect(missing.stdout).toContain('0 passed, 2 failed');

    const update = await docpipe(env, 'check', lib, '--update', '--json');
    expect(update.status).toBe(0);
    expect(outcomesOf(update).map((o) => [o.fixture, o.ok, o.pages, o.updated, o.removed])).toEqual(
      [
        [
          'basic',
          true,
          2,
          ['snapshots/basic.txt', 'snapshots/basic.p1.png', 'snapshots/basic.p2.png'],
          [],
        ],
        [
          'no-guarantor',
          true,
          2,
          [
            'snapshots/no-guarantor.txt',
            'snapshots/no-guarantor.p1.png',
            'snapshots/no-guarantor.p2.png',
          ],
          [],
        ],
      ],
    );
    expect(readdirSync(join(lease, 'snapshots')).sort()).toEqual(SNAPSHOT_FILES);
    const page = decodePng(readFileSync(join(lease, 'snapshots', 'basic.p1.png')), 'p1');
    // A4 at 50 dpi.
    expect([page.width, page.height]).toEqual([414, 585]);
    const text = readFileSync(join(lease, 'snapshots', 'basic.txt'), 'utf8');
    expect(text).toContain('Lejer: Mette Sørensen, Vestergade 3, 2. th., 8000 Aarhus C.');
    expect(text).not.toMatch(/ +\n/);

    const pass = await docpipe(env, 'check', lib);
    expect(pass.stderr).toBe('');
    expect(pass.status).toBe(0);
    expect(rows(pass.stdout).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      ['lease', 'basic', '2', 'ok'],
      ['lease', 'no-guarantor', '2', 'ok'],
    ]);
    expect(pass.stdout).toContain('2 passed, 0 failed');

    // A second --update with nothing changed writes nothing.
    const again = await docpipe(env, 'check', lib, '--update', '--json');
    expect(outcomesOf(again).map((o) => o.updated)).toEqual([[], []]);
  });

  it('fails a line moved down, naming the page and where, with a diff image; a changed value fails the text snapshot', async () => {
    const { lib, lease, env, diffs } = leaseCopy();
    expect((await docpipe(env, 'check', lib, '--update')).status).toBe(0);
    const original = readFileSync(join(lease, 'template.docx'));
    insertEmptyParagraph(join(lease, 'template.docx'));

    const moved = await docpipe(env, 'check', lib, '--json');
    expect(moved.status).toBe(1);
    const outcomes = outcomesOf(moved);
    expect(outcomes.map((o) => [o.fixture, o.ok])).toEqual([
      ['basic', false],
      ['no-guarantor', false],
    ]);
    const basic = outcomes[0]!;
    expect(basic.missing).toEqual([]);
    const image = basic.problems.find((p) => p.kind === 'page-image' && p.page === 1);
    expect(image).toBeDefined();
    expect(image!.diff).toBe(join(diffs, 'lease', 'basic.p1.diff.png'));
    expect(image!.message).toMatch(
      /^page 1: \d+\.\d\d% of the page changed \(\d+ px\) at x \d+-\d+, y \d+-\d+ px \(50 dpi: [\d.]+ to [\d.]+ cm from the top\); diff image: /,
    );
    expect(image!.changed).toBeGreaterThan(0.01);
    // Everything from the inserted line down moved: the box starts near the top of the page
    // (below the running header) and spans most of the text column.
    const box = image!.box!;
    expect(box.y).toBeGreaterThan(20);
    expect(box.y).toBeLessThan(150);
    expect(box.height).toBeGreaterThan(150);
    expect(box.x + box.width).toBeLessThanOrEqual(414);
    const diff = decodePng(readFileSync(image!.diff!), 'diff');
    expect([diff.width, diff.height]).toEqual([414, 585]);
    expect(existsSync(join(diffs, 'lease', 'basic.p1.actual.png'))).toBe(true);
    const text = basic.problems.find((p) => p.kind === 'text');
    expect(text?.message).toMatch(
      /^text differs from snapshots\/basic\.txt on page 1, line \d+: 1 line inserted before "/,
    );

    // Back to the template as recorded: passes again, and the old diff images are gone.
    writeFileSync(join(lease, 'template.docx'), original);
    const restored = await docpipe(env, 'check', lib);
    expect(restored.status).toBe(0);
    expect(readdirSync(join(diffs, 'lease'))).toEqual([]);

    // One digit of a value: too few pixels to fail a page, but the text snapshot sees it.
    const tags = join(lease, 'fixtures', 'basic.tags.json');
    writeFileSync(
      tags,
      readFileSync(tags, 'utf8').replace('Nørregade 7, 1. tv.', 'Nørregade 9, 1. tv.'),
    );
    const changed = await docpipe(env, 'check', lib, '--json');
    expect(changed.status).toBe(1);
    const [changedBasic, other] = outcomesOf(changed);
    expect(other!.ok).toBe(true);
    expect(changedBasic!.problems.map((p) => [p.kind, p.page])).toEqual([['text', 1]]);
    // The line is quoted around where it changed.
    expect(changedBasic!.problems[0]!.message).toMatch(
      /^text differs from snapshots\/basic\.txt on page 1, line \d+: "\.\.\.målet er beliggende Nørregade 7, 1\. tv\., 8000 Aarhus C og udgør i alt \.\.\." is now "\.\.\.målet er beliggende Nørregade 9, 1\. tv\., 8000 Aarhus C og udgør i alt \.\.\."; the text as it is now: /,
    );
    expect(readFileSync(join(diffs, 'lease', 'basic.txt'), 'utf8')).toContain(
      'Nørregade 9, 1. tv.',
    );
  });

  it('fails a page count that differs from the snapshots, and --update removes the stale page', async () => {
    const { lib, lease, env } = leaseCopy();
    expect((await docpipe(env, 'check', lib, '--update')).status).toBe(0);
    const snapshots = join(lease, 'snapshots');
    // As if the document had three pages when it was recorded.
    copyFileSync(join(snapshots, 'basic.p2.png'), join(snapshots, 'basic.p3.png'));
    const longer = await docpipe(env, 'check', lib);
    expect(longer.status).toBe(1);
    expect(longer.stdout).toContain('    2 pages; the snapshots have 3\n');
    expect(rows(longer.stdout).map((r) => r[4])).toEqual(['FAIL', 'ok']);

    const update = await docpipe(env, 'check', lib, '--update', '--json');
    expect(outcomesOf(update).map((o) => [o.updated, o.removed])).toEqual([
      [[], ['snapshots/basic.p3.png']],
      [[], []],
    ]);
    expect(readdirSync(snapshots).sort()).toEqual(SNAPSHOT_FILES);
  });
});
