/**
 * Places and evidence (issue 23): CPU per document, in the worker's own thread, of what the
 * pipeline adds after the PDF check — the values check, finding and removing the anchors'
 * markers (one text layer for all three) and the evidence's hashes — on W1 (the lease filled
 * with its fixture) with four anchors added (two signers' {sign:N} and {date:N}). Beside it, the
 * same thread's CPU for the rest of that render (fill and harden, the PDF check and stamp): the
 * render without places and evidence. LibreOffice's own CPU is another process's and in neither.
 * CPU is process.cpuUsage over each round; each round reads a fresh copy of the PDF's bytes,
 * so no text layer is reused between rounds. The timed rounds follow a warm-up (see WARMUP).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { projectRoot } from '../src/base/paths/index.js';
import { fillTemplate } from '../src/document/fill/index.js';
import { textLayerOf } from '../src/formats/pdf-text/index.js';
import { finishProducedPdf } from '../src/formats/pdf/index.js';
import { OfficePool } from '../src/render/convert/index.js';
import { placeMarkers, renderEvidence, valuesNotShown } from '../src/render/pipeline/index.js';
import { prepareDocument } from '../src/render/prepare/index.js';
import { DEFAULT_SNIFF_LIMITS } from '../src/formats/sniff/index.js';
import type { Stats } from './stats.js';

export interface PlacesEvidenceRow {
  name: string;
  docpipe: Stats;
  baseline: { name: string; stats: Stats };
  target: string;
  meets: boolean;
}

/**
 * Warm-up renders before the timed rounds (BENCH_PLACES_WARMUP). V8 optimizes a function called
 * a few times per document only after some hundreds of documents: a worker thread's first
 * renders cost more (W1: about 2.5 times the settled p50 over the first 100), and a long-running
 * worker spends nearly all its renders settled, which the timed rounds measure. The first
 * rounds' p50 is reported beside them.
 */
const WARMUP = Number(process.env.BENCH_PLACES_WARMUP ?? 500);
/** The first rounds whose p50 is reported as a fresh worker's. */
const FIRST_ROUNDS = 100;

/** CPU milliseconds of one round (user + system). */
async function cpuOf(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

function statsOf(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

/** CPU of each round after `warmup` rounds, and the p50 of the first rounds of the warm-up. */
async function cpu(
  rounds: number,
  work: () => unknown,
  warmup = Math.min(30, rounds),
): Promise<{ stats: Stats; first: number }> {
  const early: number[] = [];
  for (let i = 0; i < warmup; i++) early.push(await cpuOf(work));
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await cpuOf(work));
  const first = early.length > 0 ? statsOf(early.slice(0, FIRST_ROUNDS)).p50 : NaN;
  return { stats: statsOf(samples), first };
}

/** The lease template with a signing block: two signers' signature and date anchors. */
function w1WithAnchors(template: Buffer): Buffer {
  const zip = new PizZip(template);
  const xml = zip.file('word/document.xml')!.asText();
  const p = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const block = p('Landlord {sign:1} {date:1}') + p('Tenant {sign:2} {date:2}');
  const at = xml.lastIndexOf('<w:sectPr');
  zip.file('word/document.xml', xml.slice(0, at) + block + xml.slice(at));
  return zip.generate({ type: 'nodebuffer' });
}

export async function placesEvidenceRows(rounds: number): Promise<PlacesEvidenceRow[]> {
  const root = projectRoot();
  const template = w1WithAnchors(readFileSync(join(root, 'templates/lease/template.docx')));
  const tags = JSON.parse(
    readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
  ) as unknown;
  const field = 'documents[0]';
  const filled = fillTemplate(template, tags);
  const pool = await OfficePool.start({ processes: 1 });
  let converted: Uint8Array;
  try {
    converted = await pool.convert({ docx: filled.docx, field, title: 'W1' });
  } finally {
    await pool.close();
  }
  const stamp = { title: 'W1', producer: 'docpipe bench' };
  const { pdf, pages, fonts } = await finishProducedPdf(converted, field, stamp, false);

  const added = await cpu(
    rounds,
    async () => {
      const bytes = pdf.slice();
      const notShown = valuesNotShown(textLayerOf(bytes), filled.shown, field);
      if (notShown.length > 0) throw new Error(`W1 values not shown: ${notShown[0]!.field}`);
      const placed = await placeMarkers(bytes, filled.anchors, field);
      const evidence = renderEvidence({
        pdf: placed.pdf,
        sha256: 'not part of this row: every render hashes its PDF',
        input: template,
        docx: true,
        tags,
        fonts,
        pages,
      });
      if (placed.places.length !== 4 || !evidence.officeVersion)
        throw new Error('W1: expected four places and an office version');
    },
    WARMUP,
  );
  const rest = await cpu(rounds, async () => {
    prepareDocument(template, tags, { field, limits: DEFAULT_SNIFF_LIMITS });
    await finishProducedPdf(converted.slice(), field, stamp, false);
  });
  return [
    {
      name:
        `places + evidence, W1 with 4 anchors (${pages} pages, ${filled.shown.length} values checked; ` +
        `after ${WARMUP} renders; the first ${FIRST_ROUNDS}: p50 ${added.first.toFixed(2)} ms)`,
      docpipe: added.stats,
      baseline: {
        name: 'the rest of the render in-thread (prepare, PDF check)',
        stats: rest.stats,
      },
      target: 'CPU p50 <= 2 ms',
      meets: added.stats.p50 <= 2,
    },
  ];
}
