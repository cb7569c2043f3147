import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { markerWidth, type SignaturePlace } from '../../src/document/anchors/index.js';
import { pageBreak, para } from '../helpers/docx-builder.js';
import { buildDocx } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { pdfText } from '../helpers/pdf-text.js';
import { previewTemplate } from '../../src/authoring/preview/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Anchors through the real pipeline: fill puts markers in, LibreOffice lays them out, the
 * renderer measures them in the PDF and takes them out. The places are checked against poppler's
 * own word boxes of the same PDF with the markers left in.
 */

const cell = (text: string, width: number) =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${para(text)}</w:tc>`;
const table =
  '<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr>' +
  '<w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>' +
  `<w:tr>${cell('Printed name {name:1}', 4500)}${cell('Dated {date:1}', 4500)}</w:tr></w:tbl>`;

const template = buildDocx({
  header: para('Lease agreement initials {initials:1}'),
  body:
    para('The landlord lets the flat to the tenant.') +
    para('Landlord signature {sign:1}') +
    table +
    pageBreak() +
    para('Tenant signature {sign:2} on {date:2}') +
    pageBreak() +
    para('Appendix with house rules.'),
});

let preparer: InlinePreparer;
let pool: OfficePool;
beforeAll(async () => {
  preparer = new InlinePreparer();
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(async () => {
  await pool.close();
  await preparer.close();
});

function renderer(keepAnchorMarkers = false) {
  const dir = testDir('anchors-render-');
  const storage = new LocalStorage(dir);
  const r = new Renderer({ preparer, converter: pool, storage, keepAnchorMarkers });
  return { renderer: r, storage, dir };
}

/** The files a storage folder holds. */
const stored = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  pageHeight: number;
}

/** Every word of a PDF with its box, as `pdftotext -bbox` reads it (y from the top). */
function bboxWords(pdf: Uint8Array): Word[] {
  const dir = mkdtempSync(join(tmpdir(), 'anchors-bbox-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'in.pdf'), '-'], {
      encoding: 'utf8',
    });
    const words: Word[] = [];
    let page = 0;
    let pageHeight = 0;
    for (const line of html.split('\n')) {
      const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
      if (p) {
        page++;
        pageHeight = Number(p[2]);
      }
      const w =
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/.exec(
          line,
        );
      if (w)
        words.push({
          page,
          text: w[5]!,
          xMin: +w[1]!,
          yMin: +w[2]!,
          xMax: +w[3]!,
          yMax: +w[4]!,
          pageHeight,
        });
    }
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MARKER = /^DP[SIND]\d{5}x*$/;
const label = (p: SignaturePlace) => `${p.page} ${p.kind}:${p.recipient}`;

describe('anchors through LibreOffice', () => {
  it('answers each place with its page and a rect that poppler agrees with within 1 pt', async () => {
    const { renderer: keeping, storage } = renderer(true);
    const kept = await keeping.render({ bytes: template, name: 'lease' }, []);
    const keptPdf = (await storage.get(kept.key))!;
    expect(kept.pages).toBe(3);
    const places = kept.places ?? [];
    // Body, table and header on page 1 (document order on a page), page 2's two, and the
    // header's initials once on every page.
    expect(places.map(label)).toEqual([
      '1 sign:1',
      '1 name:1',
      '1 date:1',
      '1 initials:1',
      '2 sign:2',
      '2 date:2',
      '2 initials:1',
      '3 initials:1',
    ]);
    const markers = bboxWords(keptPdf).filter((w) => MARKER.test(w.text));
    expect(markers).toHaveLength(places.length);
    for (const place of places) {
      const word = markers.find(
        (w) =>
          w.page === place.page &&
          w.text.startsWith(`DP${place.kind[0]!.toUpperCase()}0${place.recipient}`) &&
          Math.abs(w.xMin - place.rect.x) < 5,
      );
      expect(word, label(place)).toBeDefined();
      const { rect } = place;
      expect(Math.abs(rect.x - word!.xMin), label(place)).toBeLessThanOrEqual(1);
      expect(Math.abs(rect.x + rect.width - word!.xMax), label(place)).toBeLessThanOrEqual(1);
      expect(Math.abs(rect.y - (word!.pageHeight - word!.yMax)), label(place)).toBeLessThanOrEqual(
        1,
      );
      expect(
        Math.abs(rect.y + rect.height - (word!.pageHeight - word!.yMin)),
        label(place),
      ).toBeLessThanOrEqual(1);
      expect(rect.width).toBeCloseTo(markerWidth(place.kind), 0);
    }
  });

  it('takes every marker out of the PDF and leaves every other word, the same places cached', async () => {
    const { renderer: keeping, storage: keptStorage } = renderer(true);
    const kept = await keeping.render({ bytes: template, name: 'lease' }, []);
    const { renderer: plain, storage } = renderer();
    const first = await plain.render({ bytes: template, name: 'lease' }, []);
    const finalPdf = (await storage.get(first.key))!;
    expect(first.places).toEqual(kept.places);
    const text = pdfText(finalPdf);
    expect(text).not.toMatch(/DP[SIND]\d{5}/);
    const words = (pdf: Uint8Array) =>
      bboxWords(pdf)
        .map((w) => `${w.page} ${w.text}`)
        .filter((w) => !MARKER.test(w.split(' ')[1]!));
    const before = words((await keptStorage.get(kept.key))!);
    expect(before).toContain('1 landlord');
    expect(words(finalPdf)).toEqual(before);
    const again = await plain.render({ bytes: template, name: 'lease' }, []);
    expect(again.cached).toBe(true);
    expect(again.places).toEqual(first.places);
  });

  it('refuses an anchor that does not fit its cell, naming it', async () => {
    const narrow =
      '<w:tbl><w:tblPr><w:tblW w:w="1500" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr>' +
      '<w:tblGrid><w:gridCol w:w="1500"/></w:tblGrid>' +
      `<w:tr>${cell('{sign:1}', 1500)}</w:tr></w:tbl>`;
    const { renderer: plain, dir } = renderer();
    const err = await rejectionOf(
      plain.render({ bytes: buildDocx({ body: narrow + para('x') }), name: 'narrow' }, [], {
        field: 'documents[2]',
      }),
      DocpipeError,
    );
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.map((d) => d.field)).toEqual(['documents[2].anchors.sign:1']);
    expect(err.details[0]!.message).toContain('did not fit on one line');
    expect(stored(dir)).toEqual([]);
  });

  it('refuses two anchors that overlap, naming them', async () => {
    // Lines 1 pt apart: the second line's marker is drawn over the first's.
    const squeezed = (text: string) =>
      `<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="20" w:lineRule="exact"/></w:pPr>${para(text).slice('<w:p>'.length)}`;
    const { renderer: plain } = renderer();
    const bytes = buildDocx({ body: squeezed('{sign:1}') + squeezed('{date:2}') });
    const err = await rejectionOf(plain.render({ bytes, name: 'overlap' }, []), DocpipeError);
    expect(err.slug).toBe('document-production-failed');
    expect(err.details).toEqual([
      {
        field: 'anchors.sign:1',
        message: expect.stringContaining('overlaps date:2 on page 1') as string,
      },
    ]);
  });
});

/** A PDF made with pdf-lib: one text tag inside a line of text, one alone in its own operator. */
async function taggedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Signed by the buyer: {{sign:1}} thank you', { x: 72, y: 700, size: 12, font });
  page.drawText('{{date:2}}', { x: 72, y: 600, size: 12, font });
  page.drawText('Terms and conditions apply.', { x: 72, y: 500, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

/**
 * The share of white pixels inside a rect of page 1 (PDF points, y up) rendered at 72 dpi, 1.5 pt
 * in from its edges, where the neighbouring glyphs' antialiasing reaches.
 */
function whiteShare(
  pdf: Uint8Array,
  rect: { x: number; y: number; width: number; height: number },
) {
  const dir = mkdtempSync(join(tmpdir(), 'anchors-png-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '72',
      '-f',
      '1',
      '-l',
      '1',
      join(dir, 'in.pdf'),
      join(dir, 'p'),
    ]);
    const png = PNG.sync.read(readFileSync(join(dir, 'p-1.png')));
    let white = 0;
    let all = 0;
    const inset = 1.5;
    const top = Math.ceil(png.height - rect.y - rect.height + inset);
    for (let y = top; y < png.height - rect.y - inset; y++)
      for (let x = Math.ceil(rect.x + inset); x < rect.x + rect.width - inset; x++) {
        const i = (y * png.width + x) * 4;
        all++;
        if (png.data[i]! > 250 && png.data[i + 1]! > 250 && png.data[i + 2]! > 250) white++;
      }
    return white / all;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('text tags in a given PDF', () => {
  it('finds {{sign:1}} and {{date:2}} with places: true, and takes them off the page', async () => {
    const pdf = await taggedPdf();
    const { renderer: plain, storage } = renderer();
    const untouched = await plain.render({ bytes: Buffer.from(pdf), name: 'tagged.pdf' }, []);
    expect(untouched.places).toBeUndefined();
    const result = await plain.render({ bytes: Buffer.from(pdf), name: 'tagged.pdf' }, [], {
      places: true,
      field: 'documents[0]',
    });
    expect(result.places?.map(label)).toEqual(['1 sign:1', '1 date:2']);
    const words = bboxWords(pdf);
    for (const [place, tag] of [
      [result.places![0]!, '{{sign:1}}'],
      [result.places![1]!, '{{date:2}}'],
    ] as const) {
      const w = words.find((x) => x.text === tag)!;
      expect(Math.abs(place.rect.x - w.xMin)).toBeLessThanOrEqual(1);
      expect(Math.abs(place.rect.x + place.rect.width - w.xMax)).toBeLessThanOrEqual(1);
      expect(Math.abs(place.rect.y - (w.pageHeight - w.yMax))).toBeLessThanOrEqual(1);
    }
    const out = (await storage.get(result.key))!;
    const text = pdfText(out);
    // The tag alone in its operator is removed; the one inside a line is covered by white.
    expect(text).not.toContain('{{date:2}}');
    expect(text).toContain('Terms and conditions apply.');
    expect(text).toContain('Signed by the buyer:');
    expect(whiteShare(pdf, result.places![0]!.rect)).toBeLessThan(0.95);
    expect(whiteShare(out, result.places![0]!.rect)).toBe(1);
    expect(whiteShare(out, result.places![1]!.rect)).toBe(1);
    const again = await plain.render({ bytes: Buffer.from(pdf), name: 'tagged.pdf' }, [], {
      places: true,
      field: 'documents[0]',
    });
    expect(again.cached).toBe(true);
    expect(again.places).toEqual(result.places);
  });
});

/** The pixel at a point of a page image drawn at `dpi` (PDF points, y up). */
function pixel(png: PNG, dpi: number, pageHeight: number, x: number, y: number): number[] {
  const s = dpi / 72;
  const px = Math.round(x * s);
  const py = Math.round((pageHeight - y) * s);
  const i = (py * png.width + px) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

const bluish = ([r, , b]: number[]) => b! > 150 && b! > r! + 60;

describe('docpipe preview draws the places', () => {
  it('frames each anchor, unfilled and filled, and shows no marker', async () => {
    const { renderer: plain, storage } = renderer();
    const bytes = buildDocx({ body: para('Dear {client},') + para('Sign here {sign:1} please') });
    const renderPdf = async (docx: Uint8Array, tags: unknown) => {
      const r = await plain.render({ bytes: docx, name: 'preview' }, tags, {});
      return { pdf: (await storage.get(r.key))!, notices: r.notices, places: r.places };
    };
    const dpi = 96;
    for (const tags of [undefined, [{ tag: 'client', value: 'Ada', type: 'text' }]]) {
      const preview = await previewTemplate(bytes, { tags, fill: {}, dpi }, { renderPdf });
      expect(preview.places.map(label)).toEqual(['1 sign:1']);
      const { rect } = preview.places[0]!;
      const png = PNG.sync.read(preview.pages[0]!);
      const height = (png.height * 72) / dpi;
      // The frame's left edge is blue half-way up (within a pixel either way: it is 0.75 pt
      // wide); the middle is pale, with no marker text on it.
      const edge = [-1, -0.5, 0, 0.5, 1].map((d) =>
        pixel(png, dpi, height, rect.x + d, rect.y + rect.height / 2),
      );
      expect(edge.some(bluish)).toBe(true);
      const middle = pixel(png, dpi, height, rect.x + rect.width / 2, rect.y + rect.height / 2);
      expect(Math.min(...middle)).toBeGreaterThan(180);
      // Below the place, the page is white.
      const away = pixel(png, dpi, height, rect.x + rect.width / 2, rect.y - 20);
      expect(away).toEqual([255, 255, 255]);
    }
  });
});
