import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPdf } from '../../src/formats/pdf/index.js';
import {
  findText,
  pageTexts,
  removeText,
  type TextMatch,
} from '../../src/formats/pdf-text/index.js';
import { OfficePool } from '../../src/render/convert/index.js';
import { buildDocx, pageBreak, para, run } from '../helpers/docx-builder.js';
import { testDir } from '../helpers/test-dir.js';

const MARKERS = /DP[SIND]\d{5}x*/g;

/** A marker run as filling writes it: Liberation Mono, no kerning, spacing or scaling, noProof. */
const marker = (text: string, points: number) =>
  `<w:r><w:rPr><w:rFonts w:ascii="Liberation Mono" w:hAnsi="Liberation Mono" w:cs="Liberation Mono"/>` +
  `<w:caps w:val="0"/><w:spacing w:val="0"/><w:w w:val="100"/><w:kern w:val="0"/><w:noProof/>` +
  `<w:sz w:val="${points * 2}"/><w:szCs w:val="${points * 2}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

const cell = (...runs: string[]) =>
  `<w:tc><w:tcPr><w:tcW w:w="4500" w:type="dxa"/></w:tcPr><w:p>${runs.join('')}</w:p></w:tc>`;

/** Markers in body text, a table cell, the header (on every page) and on three pages. */
const docx = buildDocx({
  header: para(run('Lease no. 7 '), marker('DPI01001', 14)),
  body:
    para(run('The tenant signs here: '), marker('DPS01002xxxx', 24), run(' and nowhere else.')) +
    para(run('Name of the tenant: '), marker('DPN01003xxxxxxxxxxxxxxxx', 10), run(' in full.')) +
    `<w:tbl><w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>` +
    `<w:tr>${cell(run('Landlord'))}${cell(run('Date '), marker('DPD02004xxxxxx', 10))}</w:tr>` +
    `<w:tr>${cell(marker('DPS02005xxxx', 24))}${cell(run('Witness'))}</w:tr></w:tbl>` +
    pageBreak() +
    para(run('Second page, the landlord: '), marker('DPS02006xxxx', 24), run(' signed.')) +
    pageBreak() +
    para(run('Third page, initials '), marker('DPI02007', 14), run(' and the end of the lease.')),
});

interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  height: number;
}

/** Words as poppler lays them out (origin top-left, y down), with their page's height. */
function popplerWords(pdf: Uint8Array): Word[] {
  const file = join(testDir('docpipe-pdftext-'), 'in.pdf');
  writeFileSync(file, pdf);
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const words: Word[] = [];
  let page = 0;
  let height = 0;
  for (const line of html.split('\n')) {
    const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
    if (p) {
      page++;
      height = Number(p[2]);
    }
    const w =
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(
        line,
      );
    if (w)
      words.push({
        page,
        text: w[5]!,
        xMin: Number(w[1]),
        yMin: Number(w[2]),
        xMax: Number(w[3]),
        yMax: Number(w[4]),
        height,
      });
  }
  return words;
}

/** The match's rect against poppler's box of the same word, every side within 1 pt. */
function expectAgrees(match: TextMatch, words: Word[]): void {
  const same = words.filter((w) => w.page === match.page && w.text === match.text);
  expect(same, match.text).toHaveLength(1);
  const w = same[0]!;
  const { x, y, width, height } = match.rect;
  expect(Math.abs(x - w.xMin), `${match.text} left`).toBeLessThanOrEqual(1);
  expect(Math.abs(x + width - w.xMax), `${match.text} right`).toBeLessThanOrEqual(1);
  expect(Math.abs(y - (w.height - w.yMax)), `${match.text} bottom`).toBeLessThanOrEqual(1);
  expect(Math.abs(y + height - (w.height - w.yMin)), `${match.text} top`).toBeLessThanOrEqual(1);
}

const sorted = (words: Word[]) =>
  words.sort((a, b) => a.page - b.page || a.yMin - b.yMin || a.xMin - b.xMin);

/** Each page rendered by poppler at 72 dpi in grey: one pixel a point. */
function renders(pdf: Uint8Array, pages: number): PNG[] {
  const dir = testDir('docpipe-pdftoppm-');
  writeFileSync(join(dir, 'in.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '72', '-gray', '-png', join(dir, 'in.pdf'), join(dir, 'p')]);
  return Array.from({ length: pages }, (_, i) =>
    PNG.sync.read(readFileSync(join(dir, `p-${i + 1}.png`))),
  );
}

/** Pixels that differ between two renders, inside and outside the given rects (grown by 2 pt). */
function differences(
  a: PNG,
  b: PNG,
  rects: TextMatch['rect'][],
): { inside: number; outside: number } {
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      if (a.data[i] === b.data[i]) continue;
      // The pixel's centre in PDF points, y up from the bottom of the page.
      const px = x + 0.5;
      const py = a.height - y - 0.5;
      const hit = rects.some(
        (r) =>
          px >= r.x - 2 && px <= r.x + r.width + 2 && py >= r.y - 2 && py <= r.y + r.height + 2,
      );
      if (hit) inside++;
      else outside++;
    }
  return { inside, outside };
}

let pool: OfficePool;
let pdf: Uint8Array;

beforeAll(async () => {
  pool = await OfficePool.start({ processes: 1 });
  pdf = await pool.convert({ docx, field: 'documents[0]', title: 'Markers' });
});
afterAll(() => pool.close());

describe('the text layer of LibreOffice output', () => {
  it('finds every marker, removable, where poppler puts it', () => {
    const matches = findText(pdf, MARKERS);
    expect(matches.map((m) => [m.page, m.text, m.removable])).toEqual([
      [1, 'DPI01001', true],
      [1, 'DPS01002xxxx', true],
      [1, 'DPN01003xxxxxxxxxxxxxxxx', true],
      [1, 'DPD02004xxxxxx', true],
      [1, 'DPS02005xxxx', true],
      [2, 'DPI01001', true],
      [2, 'DPS02006xxxx', true],
      [3, 'DPI01001', true],
      [3, 'DPI02007', true],
    ]);
    const words = popplerWords(pdf);
    for (const m of matches) expectAgrees(m, words);
    // Monospaced at 0.6 em: the box is as wide as the marker's characters.
    const sign = matches.find((m) => m.text === 'DPS01002xxxx')!;
    expect(sign.rect.width).toBeCloseTo(12 * 0.6 * 24, 1);
  });

  it('gives each page its text, markers and words in order', () => {
    const texts = pageTexts(pdf);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('The tenant signs here: DPS01002xxxx and nowhere else.');
    expect(texts[2]).toContain('Third page, initials DPI02007 and the end of the lease.');
  });

  it('removes the markers and nothing else: every other word stays where it was', async () => {
    const matches = findText(pdf, MARKERS);
    const out = await removeText(pdf, matches);
    expect(await checkPdf(out, 'pdf', 'produced')).toEqual({ pages: 3 });
    // Poppler orders words by its own reading of the layout, which the gaps left change: the
    // words are compared as sets.
    const after = sorted(popplerWords(out));
    const before = sorted(popplerWords(pdf).filter((w) => !/^DP[SIND]\d{5}x*$/.test(w.text)));
    expect(before.length).toBeGreaterThan(20);
    expect(after).toEqual(before);
    expect(findText(out, MARKERS)).toEqual([]);
    // Rendered, the pages differ only where the markers were, and there they do.
    const [a, b] = [renders(pdf, 3), renders(out, 3)];
    for (let page = 1; page <= 3; page++) {
      const rects = matches.filter((m) => m.page === page).map((m) => m.rect);
      const diff = differences(a[page - 1]!, b[page - 1]!, rects);
      expect(diff.outside, `page ${page}`).toBe(0);
      expect(diff.inside, `page ${page}`).toBeGreaterThan(rects.length * 20);
    }
    // The original bytes are kept: the removal is an incremental update.
    expect(Buffer.from(out.subarray(0, pdf.length)).equals(Buffer.from(pdf))).toBe(true);
  });
});

describe('a text tag in a PDF pdf-lib made with a standard font', () => {
  it('is found with the rect poppler gives it', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Please sign here: {{sign:1}} thank you', { x: 72, y: 700, size: 12, font });
    const bytes = await doc.save();
    const [match] = findText(bytes, /\{\{sign:\d+\}\}/g);
    expect(match).toMatchObject({ page: 1, text: '{{sign:1}}' });
    // pdf-lib draws without kerning: each glyph its AFM width.
    const width = (text: string) =>
      [...text].reduce((sum, c) => sum + font.widthOfTextAtSize(c, 12), 0);
    expect(match!.rect.x).toBeCloseTo(72 + width('Please sign here: '), 3);
    expect(match!.rect.width).toBeCloseTo(width('{{sign:1}}'), 3);
    // Helvetica's ascender 718 and descender -207.
    expect(match!.rect.y).toBeCloseTo(700 - 0.207 * 12, 3);
    expect(match!.rect.height).toBeCloseTo(0.925 * 12, 3);
    expectAgrees(match!, popplerWords(bytes));
  });
});
