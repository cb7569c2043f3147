/**
 * What bench/run.ts collects (its timed rows, its throughput rows, the case and delivery
 * benchmarks' results) made into latest.json's figures and series (bench/report/results.ts).
 */
import type { Stats } from '../stats.js';
import {
  meetsTarget,
  type BarSeries,
  type Figure,
  type LineSeries,
  type Note,
  type Spread,
  type Target,
  type TargetOp,
} from './results.js';

/** A timed row as bench/run.ts collects it (and the benchmark modules give it). */
export interface RunRow {
  /** Set where the name holds sizes that change between runs; otherwise made from the name. */
  id?: string;
  group?: string;
  name: string;
  docpipe: Stats;
  baseline?: { name: string; stats: Stats };
  target?: string;
  meets?: boolean;
}

/** A ratio a throughput section computes from its interleaved runs. */
export interface RunRatio {
  id: string;
  name: string;
  /** docpipe's figure (documents a second) the ratio is of. */
  value: number;
  unit?: string;
  baseline: { name: string; value: number };
  ratio: number;
  /** Each interleaved run's ratio. */
  runs?: number[];
  /** E.g. `>= 0.85`. */
  target?: string;
}

/** A throughput row as bench/run.ts collects it: a rate, or a note (perSecond NaN). */
export interface RunThroughput {
  id?: string;
  group?: string;
  name: string;
  perSecond: number;
  unit?: string;
  failed?: number;
  note?: string;
  /** Each interleaved run's rate, where the rate is their median. */
  runs?: number[];
  /** On the rate itself, e.g. `>= 300`. */
  target?: string;
  ratios?: RunRatio[];
}

export interface RunCollected {
  rows: RunRow[];
  throughput: RunThroughput[];
  /** Figures a section makes itself, where neither a row nor a rate fits (fair sharing's wait). */
  figures?: Figure[];
}

/** `fill W1 (17 tags, in-thread)` -> `fill-w1`: the name without what a run's sizes put in it. */
export function slug(name: string): string {
  return name
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const num = (s: string | undefined) => Number(s);

/**
 * A target as the benchmarks write it (`p50 <= 2 ms`, `p95 < 1000 ms`, `>= 0.85`, `at least 15 x
 * faster`, `30 to 100 ms CPU`, `<= 100 KB`, `p50 at most 300 ms over node -e 0 (measured: ...)`)
 * in a form that can be checked again. Undefined for a text it does not know: the row's own
 * `meets` then stands.
 */
export function parseTarget(text: string, baseline?: number): Target | undefined {
  const shown = text.replace(/\s*\(measured[^)]*\)\s*$/, '').trim();
  let m = /at most ([\d.]+) ms over /.exec(shown);
  if (m && baseline !== undefined)
    return { text: shown, op: '<=', value: baseline + num(m[1]), on: 'value' };
  m = /^at least ([\d.]+) x faster/.exec(shown);
  // docpipe's time over the baseline's: N times faster is a ratio of at most 1/N.
  if (m) return { text: shown, op: '<=', value: 1 / num(m[1]), on: 'ratio' };
  m = /^([\d.]+) to ([\d.]+) /.exec(shown);
  if (m) return { text: shown, op: 'between', value: num(m[1]), max: num(m[2]), on: 'value' };
  m = /^p95 (<=|<) ([\d.]+)/.exec(shown);
  if (m) return { text: shown, op: m[1] as TargetOp, value: num(m[2]), on: 'p95' };
  m = /= ([\d.]+) ms$/.exec(shown);
  if (m) return { text: shown, op: '<=', value: num(m[1]), on: 'value' };
  m = /^(?:CPU )?(?:p50 )?(<=|<|>=|>) ([\d.]+)\s*(ms|KB|x)?/.exec(shown);
  if (m)
    return {
      text: shown,
      op: m[1] as TargetOp,
      value: num(m[2]),
      on: m[3] === 'ms' || m[3] === 'KB' ? 'value' : 'ratio',
    };
  return undefined;
}

function spreadOf(s: Stats): Spread {
  const spread: Spread = { p50: s.p50, p95: s.p95, n: s.n };
  if (s.min !== undefined) spread.min = s.min;
  if (s.max !== undefined) spread.max = s.max;
  return spread;
}

function withMeets(f: Omit<Figure, 'meets'>, given?: boolean): Figure {
  const meets = meetsTarget(f) ?? given;
  return meets === undefined ? f : { ...f, meets };
}

function rowFigure(r: RunRow): Figure {
  const unit = / KB$/.test(r.target ?? '') ? 'KB' : 'ms';
  const f: Omit<Figure, 'meets'> = {
    id: r.id ?? `${r.group ?? 'other'}.${slug(r.name)}`,
    group: r.group ?? 'other',
    name: r.name,
    unit,
    value: r.docpipe.p50,
    spread: spreadOf(r.docpipe),
  };
  if (r.baseline) {
    f.baseline = { name: r.baseline.name, value: r.baseline.stats.p50 };
    f.ratio = r.docpipe.p50 / r.baseline.stats.p50;
  }
  const target = r.target ? parseTarget(r.target, r.baseline?.stats.p50) : undefined;
  if (target) f.target = target;
  else if (r.target) f.target = { text: r.target, op: '<=', value: NaN, on: 'value' };
  return withMeets(f, r.meets);
}

function ratioFigure(group: string, r: RunRatio): Figure {
  const f: Omit<Figure, 'meets'> = {
    id: r.id,
    group,
    name: r.name,
    unit: r.unit ?? 'docs/s',
    value: r.value,
    baseline: r.baseline,
    ratio: r.ratio,
  };
  if (r.runs) f.spread = { runs: r.runs };
  const target = r.target ? parseTarget(r.target) : undefined;
  if (target) f.target = { ...target, on: 'ratio' };
  return withMeets(f);
}

/**
 * What bench/run.ts collects (its timed rows, its throughput rows with their ratios) as figures,
 * and the throughput rows that are only text as notes. Ids are made unique: a name measured twice
 * gets `-2`.
 */
export function figuresFromRun(run: RunCollected): {
  figures: Figure[];
  notes: Note[];
} {
  const figures: Figure[] = [];
  const notes: Note[] = [];
  for (const r of run.rows) figures.push(rowFigure(r));
  for (const t of run.throughput) {
    const group = t.group ?? 'throughput';
    if (Number.isFinite(t.perSecond)) {
      const f: Omit<Figure, 'meets'> = {
        id: t.id ?? `${group}.${slug(t.name)}`,
        group,
        name: t.failed ? `${t.name} (${t.failed} failed)` : t.name,
        unit: t.unit ?? 'docs/s',
        value: t.perSecond,
      };
      if (t.runs) f.spread = { runs: t.runs };
      const target = t.target ? parseTarget(t.target) : undefined;
      if (target) f.target = { ...target, on: 'value' };
      figures.push(withMeets(f));
    }
    for (const r of t.ratios ?? []) figures.push(ratioFigure(group, r));
    if (t.note) notes.push({ group, name: t.name, text: t.note });
  }
  figures.push(...(run.figures ?? []));
  const seen = new Map<string, number>();
  for (const f of figures) {
    const n = (seen.get(f.id) ?? 0) + 1;
    seen.set(f.id, n);
    if (n > 1) f.id = `${f.id}-${n}`;
  }
  return { figures, notes };
}

/**
 * The throughput chart: every contender's documents a second, from the figures that have them,
 * with the target's line where `ratioId` names a ratio figure with a target (the queue's 0.85 of
 * the fastest raw loop is drawn at 0.85 x that loop's rate).
 */
export function throughputSeries(
  figures: readonly Figure[],
  contenders: readonly { id: string; name: string; docpipe?: boolean }[],
  ratioId?: string,
): BarSeries | undefined {
  const byId = new Map(figures.map((f) => [f.id, f]));
  const bars = contenders.flatMap((c) => {
    const f = byId.get(c.id);
    if (!f) return [];
    const bar: BarSeries['bars'][number] = { name: c.name, value: f.value };
    if (f.spread) bar.spread = f.spread;
    if (c.docpipe) bar.docpipe = true;
    return [bar];
  });
  if (bars.length === 0) return undefined;
  const series: BarSeries = {
    kind: 'bar',
    id: 'throughput',
    title: 'W1 documents a second, 2 office processes',
    xLabel: 'contender',
    yLabel: 'documents a second',
    bars,
  };
  const r = ratioId ? byId.get(ratioId) : undefined;
  if (r?.target && r.baseline && Number.isFinite(r.target.value))
    series.target = {
      text: `target: ${r.target.text} of ${r.baseline.name}`,
      value: r.target.value * r.baseline.value,
    };
  return series;
}

interface CasesDetails {
  throughput?: {
    cases: number;
    convert: number;
    ratio: number;
    ratios: number[];
    casesCpu: { total: number };
    convertCpu: { total: number };
  };
  pdf?: { p50: number; p95: number; n: number; beside: { name: string; p50: number }[] };
  list?: { rows: { name: string; p50: number; p95: number }[]; seeded: number };
  memory?: { readings: { after: number; serve: number; worker: number; postgres: number }[] };
}

/** Issue 22's case benchmarks (bench/cases.ts's `results`) as figures of the group `cases`. */
export function caseFigures(results: unknown): Figure[] {
  const r = (results ?? {}) as CasesDetails;
  const out: Omit<Figure, 'meets'>[] = [];
  if (r.throughput) {
    const t = r.throughput;
    out.push({
      id: 'cases.w1.vs-convert',
      group: 'cases',
      name: 'a v3 case of W1 and 2 recipients, against convert of W1',
      unit: 'cases/s',
      value: t.cases,
      baseline: { name: 'convert of W1', value: t.convert },
      ratio: t.ratio,
      spread: { runs: t.ratios },
      target: { text: '>= 0.8', op: '>=', value: 0.8, on: 'ratio' },
    });
    out.push({
      id: 'cases.w1.cpu-ratio',
      group: 'cases',
      name: "convert's CPU over a case's (the ratio where CPU is what limits)",
      unit: '',
      value: t.convertCpu.total / t.casesCpu.total,
      ratio: t.convertCpu.total / t.casesCpu.total,
    });
  }
  if (r.pdf) {
    const convert = r.pdf.beside[0];
    const f: Omit<Figure, 'meets'> = {
      id: 'cases.pdf.latency',
      group: 'cases',
      name: 'a case of one PDF, one request at a time',
      unit: 'ms',
      value: r.pdf.p50,
      spread: { p50: r.pdf.p50, p95: r.pdf.p95, n: r.pdf.n },
      target: { text: 'p50 <= 15 ms', op: '<=', value: 15, on: 'value' },
    };
    if (convert) {
      f.baseline = { name: convert.name, value: convert.p50 };
      f.ratio = r.pdf.p50 / convert.p50;
    }
    out.push(f);
  }
  for (const row of r.list?.rows ?? [])
    out.push({
      id: `cases.list.${slug(row.name)}`,
      group: 'cases',
      name: `GET /v3/api/cases with ${r.list!.seeded.toLocaleString('en')} cases: ${row.name}`,
      unit: 'ms',
      value: row.p50,
      spread: { p50: row.p50, p95: row.p95, n: 0 },
      target: { text: 'p50 <= 20 ms', op: '<=', value: 20, on: 'value' },
    });
  return out.map((f) => withMeets(f));
}

interface DeliveryDetails {
  memory?: {
    readings: { after: number; rss: number; heap: number; redis: number; postgres: number }[];
  };
}

/**
 * The memory readings the case and delivery benchmarks take as line series (MB against cases or
 * events done): the nearest to issue 37's soak that is measured today.
 */
export function memorySeries(cases: unknown, delivery: unknown): LineSeries[] {
  const out: LineSeries[] = [];
  const c = (cases ?? {}) as CasesDetails;
  if (c.memory?.readings.length) {
    const at = c.memory.readings;
    out.push({
      kind: 'line',
      id: 'cases-memory',
      title: 'Memory over PDF cases in a row',
      xLabel: 'cases created',
      yLabel: 'MB',
      lines: [
        { name: 'serve (VmRSS)', points: at.map((x) => [x.after, x.serve]) },
        { name: "worker's Node process (VmRSS)", points: at.map((x) => [x.after, x.worker]) },
        { name: 'PostgreSQL (Pss)', points: at.map((x) => [x.after, x.postgres]) },
      ],
    });
  }
  const d = (delivery ?? {}) as DeliveryDetails;
  if (d.memory?.readings.length) {
    const at = d.memory.readings;
    out.push({
      kind: 'line',
      id: 'delivery-memory',
      title: 'Memory over webhook deliveries',
      xLabel: 'events delivered',
      yLabel: 'MB',
      lines: [
        { name: "docpipe's process (RSS)", points: at.map((x) => [x.after, x.rss]) },
        { name: "docpipe's heap after GC", points: at.map((x) => [x.after, x.heap]) },
        { name: 'Redis (RSS)', points: at.map((x) => [x.after, x.redis]) },
        { name: 'PostgreSQL (Pss)', points: at.map((x) => [x.after, x.postgres]) },
      ],
    });
  }
  return out;
}
