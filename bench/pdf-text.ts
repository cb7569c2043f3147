/**
 * `node dist/bench/pdf-text.js`: CPU of the text layer (findText + pageTexts) on LibreOffice
 * output: W1 (the lease filled with its fixture) and a 12-page document of plain paragraphs.
 * Issue 23's budget is 2 ms of CPU for anchors and evidence together on W1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { projectRoot } from '../src/base/paths/index.js';
import { fillTemplate } from '../src/document/fill/index.js';
import { TextLayer, findText, pageTexts } from '../src/formats/pdf-text/index.js';
import { OfficePool } from '../src/render/convert/index.js';
import { buildDocx, pageBreak, para, run } from '../test/helpers/docx-builder.js';

const MARKERS = /DP[SIND]\d{5}x*/g;
const rounds = Number(process.env.BENCH_ROUNDS ?? 300);

/** Median CPU milliseconds (user + system) of one call, over `rounds` after a warm-up. */
function cpuMs(work: () => void): number {
  for (let i = 0; i < 30; i++) work();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.cpuUsage();
    work();
    const spent = process.cpuUsage(start);
    samples.push((spent.user + spent.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

function twelvePages(): Buffer {
  const words =
    'The tenant shall pay the rent monthly in advance to the account of the landlord stated in this agreement'.split(
      ' ',
    );
  let body = '';
  for (let p = 0; p < 12; p++) {
    for (let k = 0; k < 7; k++)
      body += para(
        run(Array.from({ length: 60 }, (_, i) => words[(i * 7 + k + p) % words.length]).join(' ')),
      );
    if (p < 11) body += pageBreak();
  }
  return buildDocx({ body });
}

const root = projectRoot();
const w1 = fillTemplate(
  readFileSync(join(root, 'templates/lease/template.docx')),
  JSON.parse(readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8')) as never,
).docx;
const pool = await OfficePool.start({ processes: 1 });
try {
  for (const [name, docx] of [
    ['W1', w1],
    ['12 pages', twelvePages()],
  ] as const) {
    const pdf = await pool.convert({ docx, field: 'documents[0]', title: name });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    const pages = doc.getPageCount();
    // A fresh copy each round: the functions keep the layer of the bytes they were given.
    const separate = cpuMs(() => {
      const bytes = pdf.slice();
      findText(bytes, MARKERS);
      pageTexts(bytes);
    });
    const shared = cpuMs(() => {
      const layer = new TextLayer(pdf);
      layer.find(MARKERS);
      layer.texts();
    });
    const loaded = cpuMs(() => {
      const layer = new TextLayer(doc);
      layer.find(MARKERS);
      layer.texts();
    });
    process.stdout.write(
      `${name} (${pages} pages, ${pdf.length} bytes): findText + pageTexts (bytes) ${separate.toFixed(2)} ms, ` +
        `one TextLayer ${shared.toFixed(2)} ms, one TextLayer over the check's PDFDocument ${loaded.toFixed(2)} ms\n`,
    );
  }
} finally {
  await pool.close();
}
