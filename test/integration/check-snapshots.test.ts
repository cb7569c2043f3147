import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FixtureOutcome } from '../../src/authoring/check/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { decodePng } from '../../src/formats/raster/index.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
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

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a process of its own, as an author runs it (asynchronous: vitest keeps time). */
function spawned(env: Record<string, string>, ...args: string[]): Promise<Run> {
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

/**
 * The same command run in this process (test/helpers/cli-in-process.ts): it still starts and
 * closes its own LibreOffice, but not the whole program again for each of the file's runs.
 */
function docpipe(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return docpipeInProcess({ DOCPIPE_OFFICE_PROCESSES: '1', ...env }, ...args);
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

/** Pixels drawn in the diff image's green (new ink), at any strength. */
function greenPixels(img: { data: Buffer }): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const [r, g, b] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
    if (g - r > 60 && g - b > 60) n++;
  }
  return n;
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
  'basic.json',
  'basic.p1.png',
  'basic.p2.png',
  'basic.txt',
  'no-guarantor.json',
  'no-guarantor.p1.png',
  'no-guarantor.p2.png',
  'no-guarantor.txt',
];

// Each test runs `docpipe check` two to four times, each drawing pages: 20 to 35 s alone, over a
// minute beside the rest of the suite on two cores, when each started its own LibreOffice. The
// runs are in-process (but the first): loading the program for each cost more than a second of
// CPU, starting the office another second.
describe(
  'docpipe check with snapshots (real LibreOffice, real poppler)',
  { timeout: 180_000 },
  () => {
    it('fails without snapshots, records them with --update, then passes', async () => {
      const { lib, lease, env } = leaseCopy();
      // The built CLI once, as an author runs it; the file's other runs in-process.
      const missing = await spawned(env, 'check', lib);
      expect(missing.status).toBe(1);
      expect(rows(missing.stdout)).toEqual([
        ['lease', 'basic', '2', expect.stringMatching(/^\d+$/), 'FAIL'],
        ['lease', 'no-guarantor', '2', expect.stringMatching(/^\d+$/), 'FAIL'],
      ]);
      const hint = `run "docpipe check --update ${lease}" to record it`;
      expect(missing.stdout).toContain(`    snapshots/basic.txt is missing: ${hint}`);
      expect(missing.stdout).toContain(
        `    no page snapshots (snapshots/no-guarantor.json, snapshots/no-guarantor.p1.png ...): ${hint}`,
      );
      expect(missing.stdout).toContain('0 passed, 2 failed');

      const update = await docpipe(env, 'check', lib, '--update', '--json');
      expect(update.status).toBe(0);
      expect(
        outcomesOf(update).map((o) => [o.fixture, o.ok, o.pages, o.updated, o.removed]),
      ).toEqual([
        [
          'basic',
          true,
          2,
          [
            'snapshots/basic.txt',
            'snapshots/basic.json',
            'snapshots/basic.p1.png',
            'snapshots/basic.p2.png',
          ],
          [],
        ],
        [
          'no-guarantor',
          true,
          2,
          [
            'snapshots/no-guarantor.txt',
            'snapshots/no-guarantor.json',
            'snapshots/no-guarantor.p1.png',
            'snapshots/no-guarantor.p2.png',
          ],
          [],
        ],
      ]);
      expect(readdirSync(join(lease, 'snapshots')).sort()).toEqual(SNAPSHOT_FILES);
      const page = decodePng(readFileSync(join(lease, 'snapshots', 'basic.p1.png')), 'p1');
      // A4 at 50 dpi.
      expect([page.width, page.height]).toEqual([414, 585]);
      const text = readFileSync(join(lease, 'snapshots', 'basic.txt'), 'utf8');
      expect(text).toContain('Lejer: Mette Sørensen, Vestergade 3, 2. th., 8000 Aarhus C.');
      expect(text).not.toMatch(/ +\n/);
      expect(readFileSync(join(lease, 'snapshots', 'basic.json'), 'utf8')).toBe('{ "pages": 2 }\n');

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
        /^page 1: \d+\.\d\d% of the page changed \(\d+ px\) at x \d+-\d+, y \d+-\d+ px \(50 dpi: [\d.]+ to [\d.]+ cm from the top\); the text differs too: see above; diff image: /,
      );
      expect(image!.textDiffers).toBe(true);
      expect(image!.changed).toBeGreaterThan(0.01);
      // Everything from the inserted line down moved: the box starts near the top of the page
      // (below the running header) and spans most of the text column.
      const box = image!.box!;
      expect(box.y).toBeGreaterThan(20);
      expect(box.y).toBeLessThan(150);
      expect(box.height).toBeGreaterThan(150);
      expect(box.x + box.width).toBeLessThanOrEqual(414);
      // Drawn again at 100 dpi to be read (A4: 827 x 1170), the new ink in green.
      const diff = decodePng(readFileSync(image!.diff!), 'diff');
      expect([diff.width, diff.height]).toEqual([827, 1170]);
      expect(greenPixels(diff)).toBeGreaterThan(1000);
      const actual = decodePng(readFileSync(join(diffs, 'lease', 'basic.p1.actual.png')), 'actual');
      expect([actual.width, actual.height]).toEqual([827, 1170]);
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

    it('fails a page count that differs from the recorded one, and --update removes the stale page', async () => {
      const { lib, lease, env } = leaseCopy();
      expect((await docpipe(env, 'check', lib, '--update')).status).toBe(0);
      const snapshots = join(lease, 'snapshots');
      // As if the document had three pages when it was recorded.
      copyFileSync(join(snapshots, 'basic.p2.png'), join(snapshots, 'basic.p3.png'));
      writeFileSync(join(snapshots, 'basic.json'), '{"pages":3}\n');
      const longer = await docpipe(env, 'check', lib);
      expect(longer.status).toBe(1);
      expect(longer.stdout).toContain('    2 pages; the snapshots have 3\n');
      expect(rows(longer.stdout).map((r) => r[4])).toEqual(['FAIL', 'ok']);

      const update = await docpipe(env, 'check', lib, '--update', '--json');
      expect(outcomesOf(update).map((o) => [o.updated, o.removed])).toEqual([
        [['snapshots/basic.json'], ['snapshots/basic.p3.png']],
        [[], []],
      ]);
      expect(readdirSync(snapshots).sort()).toEqual(SNAPSHOT_FILES);
      expect(readFileSync(join(snapshots, 'basic.json'), 'utf8')).toBe('{ "pages": 2 }\n');
    });

    it('says a deleted page image is missing, the last page too, and a stray one is past the recorded pages', async () => {
      const { lib, lease, env } = leaseCopy();
      expect((await docpipe(env, 'check', lib, '--update')).status).toBe(0);
      const snapshots = join(lease, 'snapshots');
      const hint = `run "docpipe check --update ${lease}" to record it`;
      for (const page of [2, 1]) {
        const file = join(snapshots, `basic.p${page}.png`);
        const kept = readFileSync(file);
        rmSync(file);
        const run = await docpipe(env, 'check', lib, '--json');
        expect(run.status).toBe(1);
        const [basic, other] = outcomesOf(run);
        expect(other!.ok).toBe(true);
        expect(basic!.problems).toEqual([
          {
            kind: 'snapshot-missing',
            page,
            message: `page ${page}: snapshots/basic.p${page}.png is missing: ${hint}`,
          },
        ]);
        writeFileSync(file, kept);
      }

      copyFileSync(join(snapshots, 'basic.p2.png'), join(snapshots, 'basic.p3.png'));
      const stray = await docpipe(env, 'check', lib);
      expect(stray.status).toBe(1);
      expect(stray.stdout).toContain(
        `    snapshots/basic.p3.png is past the 2 pages of snapshots/basic.json: run "docpipe check --update ${lease}" to remove it\n`,
      );

      rmSync(join(snapshots, 'no-guarantor.json'));
      const noCount = await docpipe(env, 'check', lib);
      expect(noCount.stdout).toContain(
        `    snapshots/no-guarantor.json (the page count) is missing: ${hint}\n`,
      );
      const update = await docpipe(env, 'check', lib, '--update', '--json');
      expect(outcomesOf(update).map((o) => [o.updated, o.removed])).toEqual([
        [[], ['snapshots/basic.p3.png']],
        [['snapshots/no-guarantor.json'], []],
      ]);
      expect(readdirSync(snapshots).sort()).toEqual(SNAPSHOT_FILES);
    });

    it('prints a fixture’s value failures one per line under its row, as render does', async () => {
      const { lib, lease, env } = leaseCopy();
      const tags = join(lease, 'fixtures', 'basic.tags.json');
      writeFileSync(
        tags,
        readFileSync(tags, 'utf8')
          .replace('"2025-03-05"', '"5th of March"')
          .replace('"2025-04-01"', '"soon"'),
      );
      const run = await docpipe(env, 'check', lib);
      expect(run.status).toBe(1);
      const lines = run.stdout.split('\n');
      const row = lines.findIndex((l) => /^lease\s+basic\s/.test(l));
      expect(lines[row]).toMatch(/^lease\s+basic\s+-\s+\d+\s+FAIL$/);
      expect(lines.slice(row + 1, row + 5)).toEqual([
        '    validation-failed',
        '      tags[1] (signing_date): "5th of March" is not an ISO 8601 date (YYYY-MM-DD, optionally with a time)',
        '      tags[9] (start_date): "soon" is not an ISO 8601 date (YYYY-MM-DD, optionally with a time)',
        expect.stringMatching(/^lease\s+no-guarantor\s/),
      ]);
      // --json keeps the failure as it was: the typed failure, and the problem's one line, which
      // gives each path once.
      const json = await docpipe(env, 'check', lib, '--json');
      const [basic] = outcomesOf(json);
      expect(basic!.failure?.details.map((d) => d.field)).toEqual([
        'tags[1].value',
        'tags[9].value',
      ]);
      expect(basic!.problems).toEqual([
        {
          kind: 'render',
          message: expect.stringMatching(
            /^validation-failed: tags\[1\] \(signing_date\): .*; tags\[9\] \(start_date\): /,
          ),
        },
      ]);
    });

    it('finds template folders below the folder given, named by their path from it', async () => {
      const { lib, env } = leaseCopy();
      const project = join(lib, 'project', 'lib');
      mkdirSync(project, { recursive: true });
      renameSync(join(lib, 'lease'), join(project, 'lease'));
      // Not searched: a package folder, a dot-folder, and four folders down.
      for (const hidden of ['node_modules', '.git', join('a', 'b', 'c')])
        cpSync(join(project, 'lease'), join(lib, hidden, 'lease'), { recursive: true });
      const run = await docpipe(env, 'check', lib, '--update', '--json');
      expect(run.status).toBe(0);
      expect(outcomesOf(run).map((o) => [o.template, o.fixture, o.ok])).toEqual([
        ['project/lib/lease', 'basic', true],
        ['project/lib/lease', 'no-guarantor', true],
      ]);

      // From lib/a the lease is three folders down (b, c, lease): found; not from lib.
      const a = join(lib, 'a');
      const fromA = await docpipe(env, 'check', a, '--update', '--json');
      expect(outcomesOf(fromA).map((o) => o.template)).toEqual(['b/c/lease', 'b/c/lease']);
      rmSync(join(a, 'b', 'c', 'lease'), { recursive: true });
      const none = await docpipe(env, 'check', a);
      expect(none.status).toBe(2);
      expect(none.stderr).toBe(
        `docpipe: no template folders (with template.docx or document.json) in ${a} or up to 3 folders below it\n`,
      );
    });
  },
);
