/**
 * Issue 37's growth in pages: a generated text-and-table document (bench/growth-document.ts) of
 * 1, 10, 30, 100 and 300 pages, rendered by docpipe (Renderer: fill, harden, convert, check,
 * values, store; one office process, as the Conversion benchmark) and by the raw warm UNO loop
 * with one reused frame (bench/raw) on the same filled document. The question is whether time
 * per page stays flat as documents grow (target: within 20 % from 10 to 300 pages) and whether
 * docpipe's overhead over LibreOffice stays a constant per document rather than a cost per page.
 *
 * Both sides are timed by the wall clock (ms per document, per real page) and by CPU: the CPU
 * time of this process and all its descendants (the office processes, their bridges, the prepare
 * threads; a raw loop's python and soffice once they have exited), which a shared machine's load
 * disturbs far less. The raw loop's CPU includes its office's start, which is measured apart
 * (a one-page loop of one round) and taken off.
 *
 * Before a size's docpipe rounds, its template is filled once in each prepare thread, untimed:
 * a library document's template is compiled once and filled many times (the raw loop is given
 * the filled document and never fills).
 *
 * Sizes are interleaved: each size is rendered by both sides before the next, in alternating
 * order. Rounds shrink as documents grow, so that the part takes about the same time at every
 * size. Each docpipe round has a reference of its own, so that no render is a cache hit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Docxtemplater from 'docxtemplater';
import { PDFDocument } from 'pdf-lib';
import PizZip from 'pizzip';
import { OfficePool } from '../src/render/convert/index.js';
import { Renderer, type RenderStep } from '../src/render/pipeline/index.js';
import { PreparePool } from '../src/render/prepare/index.js';
import { LocalStorage } from '../src/render/storage/index.js';
import { growthTags, growthTemplate } from './growth-document.js';
import {
  flatness,
  overheadLine,
  perPage,
  roundsThatFit,
  type SizeTimes,
} from './growth-figures.js';
import { runRawLoop, type RawLoopResult } from './raw/run-raw.js';
import { treeCpuMs } from './cases-stack.js';
import { meetsTarget, type Figure, type Note, type Series } from './report/results.js';

const GROUP = 'growth';

interface Plan {
  pages: number;
  /** docpipe's timed rounds, and the raw loop's. */
  rounds: number;
  /** The raw loop's untimed first conversions (its office's first document is slower). */
  rawWarmup: number;
}

/**
 * About the same pages at every size (the 1-page document more, as its rounds are short), and
 * one conversion of the largest. Quick runs stop at 30 pages: a 300-page conversion alone takes
 * longer than a quick run may.
 */
function plans(quick: boolean): Plan[] {
  if (quick)
    return [
      { pages: 1, rounds: 4, rawWarmup: 1 },
      { pages: 10, rounds: 1, rawWarmup: 1 },
      { pages: 30, rounds: 1, rawWarmup: 0 },
    ];
  return [
    { pages: 1, rounds: 20, rawWarmup: 2 },
    { pages: 10, rounds: 6, rawWarmup: 1 },
    { pages: 30, rounds: 3, rawWarmup: 1 },
    { pages: 100, rounds: 1, rawWarmup: 0 },
    { pages: 300, rounds: 1, rawWarmup: 0 },
  ];
}

/**
 * A 300-page document takes longer than the default 30 s conversion limit on a loaded 2-core
 * machine: the benchmark raises it as an operator would (DOCPIPE_CONVERSION_TIMEOUT_MS).
 */
const CONVERSION_TIMEOUT_MS = 180_000;

/**
 * The wall time one side may spend on one size: a loaded machine converts several times slower
 * than an idle one, so the rounds asked are cut to what fits, judged by the last size's time per
 * page (never below one round).
 */
const SIDE_BUDGET_MS = { full: 15_000, quick: 2_500 };

/** What the rounds of one size measured, on both sides. */
interface Measured {
  plan: Plan;
  /** The real page count of the converted PDF (pdf-lib). */
  realPages: number;
  docpipeMs: number[];
  docpipeCpuMs: number;
  raw: RawLoopResult;
  /** CPU of the whole raw loop (its office's start included), then per conversion. */
  rawCpuTotal: number;
  rawCpuMs: number;
  /** Median ms of each step of docpipe's render, over the rounds. */
  steps: Partial<Record<RenderStep, number>>;
}

const cpuNow = () => treeCpuMs(process.pid);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

function filled(template: Buffer, ref: string): Buffer {
  const doc = new Docxtemplater(new PizZip(template), { paragraphLoop: true, linebreaks: true });
  doc.render(Object.fromEntries(growthTags(ref).map((t) => [t.tag, t.value])));
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

export async function growthPages(
  root: string,
  quick: boolean,
): Promise<{ figures: Figure[]; series: Series[]; notes: Note[] }> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-growth-'));
  const storage = new LocalStorage(join(work, 'storage'));
  const preparer = new PreparePool({ threads: 2 });
  const office = await OfficePool.start({
    processes: 1,
    conversionTimeoutMs: CONVERSION_TIMEOUT_MS,
  });
  const renderer = new Renderer({ preparer, converter: office, storage });
  const load = [readLoad()];
  const measured: Measured[] = [];
  let round = 0;
  try {
    const templates = new Map<number, Buffer>();
    const template = (pages: number) => {
      if (!templates.has(pages)) templates.set(pages, growthTemplate(root, pages));
      return templates.get(pages)!;
    };
    // A worker runs for days: its threads' JIT warm, as the raw loops warm their office.
    for (let i = 0; i < (quick ? 3 : 10); i++)
      await renderer.render({ bytes: template(1), name: 'Growth' }, growthTags(`warm-${i}`));

    // The raw loop's office start, in CPU: one round of one page, less that page (below).
    const onePage = join(work, 'growth-1-start.docx');
    writeFileSync(onePage, filled(template(1), 'start'));
    const before = cpuNow();
    await runRawLoop('uno-frame', onePage, 1, 0);
    const rawStartCpu = cpuNow() - before;

    let msPerPage = 0;
    for (const [i, asked] of plans(quick).entries()) {
      const budget = quick ? SIDE_BUDGET_MS.quick : SIDE_BUDGET_MS.full;
      // The 1-page size stays whole: the raw side's start is measured from it (below).
      const plan =
        i === 0
          ? asked
          : { ...asked, rounds: roundsThatFit(asked.rounds, asked.pages, msPerPage, budget) };
      const bytes = template(plan.pages);
      const path = join(work, `growth-${plan.pages}.docx`);
      writeFileSync(path, filled(bytes, `raw-${plan.pages}`));
      const docpipeMs: number[] = [];
      const steps: Partial<Record<RenderStep, number>>[] = [];
      let docpipeCpuMs = 0;
      let realPages = 0;
      let firstKey: string | undefined;
      const docpipe = async () => {
        // A library document is filled again and again: its template compiled once per prepare
        // thread (both are asked at once), untimed, as the raw loop's office is warmed.
        await Promise.all(
          [0, 1].map((k) => preparer.prepare(bytes, growthTags(`warm-${plan.pages}-${k}`))),
        );
        const cpu = cpuNow();
        for (let r = 0; r < plan.rounds; r++) {
          const started = performance.now();
          const result = await renderer.render(
            { bytes, name: 'Growth' },
            growthTags(`G-${plan.pages}-${round++}`),
          );
          docpipeMs.push(performance.now() - started);
          if (result.cached) throw new Error('a growth render was answered from storage');
          steps.push(result.timings);
          firstKey ??= result.key;
        }
        docpipeCpuMs = (cpuNow() - cpu) / plan.rounds;
        // Counted after the CPU reading: the count is the benchmark's, not the render's.
        realPages = await pdfPages(storage, firstKey!);
      };
      let raw: RawLoopResult | undefined;
      let rawCpuTotal = 0;
      const rawLoop = async () => {
        const cpu = cpuNow();
        raw = await runRawLoop('uno-frame', path, plan.rounds, plan.rawWarmup);
        rawCpuTotal = cpuNow() - cpu;
      };
      // Alternating order, so that neither side always has the machine's quieter minute.
      for (const side of i % 2 === 0 ? [docpipe, rawLoop] : [rawLoop, docpipe]) await side();
      const stepNames = [...new Set(steps.flatMap((s) => Object.keys(s ?? {})))] as RenderStep[];
      measured.push({
        plan,
        realPages,
        docpipeMs,
        docpipeCpuMs,
        raw: raw!,
        rawCpuTotal,
        rawCpuMs: 0,
        steps: Object.fromEntries(stepNames.map((k) => [k, median(steps.map((s) => s?.[k] ?? 0))])),
      });
      msPerPage = median(docpipeMs) / realPages;
      load.push(readLoad());
    }
    // The start loop is the office's start and one page; the 1-page size is the start and n
    // pages: the two give a page's conversion, and so the start alone.
    const one = measured[0]!;
    const n1 = one.plan.rounds + one.plan.rawWarmup;
    const pageCpu = (one.rawCpuTotal - rawStartCpu) / (n1 - 1);
    const startCpu = rawStartCpu - pageCpu;
    for (const m of measured)
      m.rawCpuMs = (m.rawCpuTotal - startCpu) / (m.plan.rounds + m.plan.rawWarmup);
  } finally {
    await office.close();
    await preparer.close();
    rmSync(work, { recursive: true, force: true });
  }
  return report(measured, load, quick);
}

async function pdfPages(storage: LocalStorage, key: string): Promise<number> {
  const pdf = await storage.get(key);
  if (!pdf) throw new Error(`the render ${key} is not in storage`);
  return (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
}

/** The 1-minute load average: this machine is shared, and a loaded one measures slower. */
const readLoad = (): number => Math.round(loadavg()[0]! * 100) / 100;

function report(
  measured: Measured[],
  load: number[],
  quick: boolean,
): { figures: Figure[]; series: Series[]; notes: Note[] } {
  const figures: Figure[] = [];
  const sizes: SizeTimes[] = measured.map((m) => ({
    asked: m.plan.pages,
    pages: m.realPages,
    docpipeMs: median(m.docpipeMs),
    rawMs: m.raw.p50,
    docpipeCpuMs: m.docpipeCpuMs,
    rawCpuMs: m.rawCpuMs,
  }));
  const push = (f: Omit<Figure, 'meets'>) => {
    const meets = meetsTarget(f);
    figures.push(meets === undefined ? f : { ...f, meets });
  };
  for (const [i, m] of measured.entries()) {
    const s = sizes[i]!;
    const asked = m.plan.pages;
    const sorted = [...m.docpipeMs].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const per = (ms: number) => ms / s.pages;
    push({
      id: `growth.pages-${asked}.docpipe`,
      group: GROUP,
      name: `docpipe render, ${s.pages}-page text-and-table document (ms per page)`,
      unit: 'ms',
      value: per(s.docpipeMs),
      spread: {
        p50: per(at(0.5)),
        p95: per(at(0.95)),
        min: per(sorted[0]!),
        max: per(sorted.at(-1)!),
        n: sorted.length,
      },
      baseline: { name: 'raw UNO loop, one reused frame', value: per(s.rawMs) },
      ratio: s.docpipeMs / s.rawMs,
    });
    push({
      id: `growth.pages-${asked}.raw`,
      group: GROUP,
      name: `raw UNO loop (reused frame), ${s.pages} pages (ms per page)`,
      unit: 'ms',
      value: per(s.rawMs),
      spread: { p50: per(m.raw.p50), p95: per(m.raw.p95), n: m.raw.n },
    });
    push({
      id: `growth.pages-${asked}.docpipe-cpu`,
      group: GROUP,
      name: `docpipe render, ${s.pages} pages: CPU ms per page (office processes included)`,
      unit: 'ms',
      value: per(s.docpipeCpuMs),
      baseline: { name: 'raw UNO loop, CPU', value: per(s.rawCpuMs) },
      ratio: s.docpipeCpuMs / s.rawCpuMs,
    });
    push({
      id: `growth.pages-${asked}.overhead`,
      group: GROUP,
      name: `docpipe minus raw, ${s.pages} pages (ms per document, wall)`,
      unit: 'ms',
      value: s.docpipeMs - s.rawMs,
    });
    push({
      id: `growth.pages-${asked}.overhead-cpu`,
      group: GROUP,
      name: `docpipe minus raw, ${s.pages} pages (CPU ms per document)`,
      unit: 'ms',
      value: s.docpipeCpuMs - s.rawCpuMs,
    });
  }
  const flat = flatness(sizes, 'docpipeMs');
  if (flat !== undefined)
    push({
      id: 'growth.flatness',
      group: GROUP,
      name: `docpipe ms per page, slowest over fastest size from 10 to ${flat.upTo} pages (wall)`,
      unit: '',
      value: flat.value,
      target: { text: '<= 1.2', op: '<=', value: 1.2, on: 'value' },
    });
  const flatCpu = flatness(sizes, 'docpipeCpuMs');
  if (flatCpu !== undefined)
    push({
      id: 'growth.flatness-cpu',
      group: GROUP,
      name: `docpipe CPU ms per page, most over least from 10 to ${flatCpu.upTo} pages`,
      unit: '',
      value: flatCpu.value,
      target: { text: '<= 1.2', op: '<=', value: 1.2, on: 'value' },
    });
  const rawFlat = flatness(sizes, 'rawMs');
  if (rawFlat !== undefined)
    push({
      id: 'growth.flatness-raw',
      group: GROUP,
      name: `raw UNO loop ms per page, slowest over fastest size from 10 to ${rawFlat.upTo} pages (wall)`,
      unit: '',
      value: rawFlat.value,
    });
  const overheads = sizes.map((s) => s.docpipeMs - s.rawMs);
  push({
    id: 'growth.overhead',
    group: GROUP,
    name: `docpipe minus raw per document, median over the sizes (${sizes.map((s, i) => `${s.pages} p: ${overheads[i]!.toFixed(0)}`).join(', ')} ms)`,
    unit: 'ms',
    value: median(overheads),
  });

  for (const [kind, d, r] of [
    ['', 'docpipeMs', 'rawMs'],
    ['-cpu', 'docpipeCpuMs', 'rawCpuMs'],
  ] as const) {
    const line = overheadLine(sizes, d, r);
    if (!line) continue;
    const how = kind ? 'CPU' : 'wall';
    push({
      id: `growth.overhead${kind}.per-document`,
      group: GROUP,
      name: `docpipe minus raw, fitted to the pages: the constant part (${how} ms per document)`,
      unit: 'ms',
      value: line.perDocument,
    });
    push({
      id: `growth.overhead${kind}.per-page`,
      group: GROUP,
      name: `docpipe minus raw, fitted to the pages: the part per page (${how} ms per page; 0 when constant)`,
      unit: 'ms',
      value: line.perPage,
    });
  }

  const series: Series[] = [
    {
      kind: 'line',
      id: 'time-per-page',
      title: 'Time per page against pages (text-and-table document, one office process)',
      xLabel: 'pages',
      yLabel: 'ms per page',
      lines: [
        { name: 'docpipe', points: perPage(sizes, 'docpipeMs') },
        { name: 'raw UNO loop (reused frame)', points: perPage(sizes, 'rawMs') },
        { name: 'docpipe, CPU', points: perPage(sizes, 'docpipeCpuMs') },
        { name: 'raw UNO loop, CPU', points: perPage(sizes, 'rawCpuMs') },
      ],
    },
  ];

  const notes: Note[] = [
    {
      group: GROUP,
      name: 'growth in pages: sizes and steps',
      text:
        measured
          .map(
            (m) =>
              `${m.plan.pages} pages asked, ${m.realPages} made (${m.plan.rounds} rounds a side): docpipe steps (median ms) ` +
              Object.entries(m.steps)
                .map(([k, v]) => `${k} ${v.toFixed(1)}`)
                .join(', '),
          )
          .join('; ') +
        `. Conversion limit raised to ${CONVERSION_TIMEOUT_MS / 1000} s (DOCPIPE_CONVERSION_TIMEOUT_MS); 1-minute load average at the start and after each size: ${load.join(', ')}${quick ? ' (quick run: up to 30 pages)' : ''}.`,
    },
  ];
  return { figures, series, notes };
}
