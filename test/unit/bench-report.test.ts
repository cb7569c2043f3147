import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { barChartSvg, lineChartSvg, ticks } from '../../bench/report/charts.js';
import { figuresFromRun, parseTarget } from '../../bench/report/from-run.js';
import {
  glance,
  groupTable,
  renderDocs,
  renderTexts,
  replaceBetween,
  summary,
  verdict,
} from '../../bench/report/render-docs.js';
import {
  meetsTarget,
  parseResults,
  readResults,
  type BarSeries,
  type LineSeries,
} from '../../bench/report/results.js';
import { projectRoot } from '../../src/base/paths/index.js';

const root = projectRoot();
const samplePath = join(root, 'bench/results/sample.json');
const sample = () => readResults(samplePath);
const figure = (id: string) => sample().figures.find((f) => f.id === id)!;

describe('the report from latest.json (bench/results/sample.json)', () => {
  it('writes a ratio figure as a table row with its runs, baseline, ratio and a plain missed', () => {
    const table = groupTable(sample(), 'throughput');
    expect(table).toContain(
      '| W1 jobs through the queue (2 office processes) against the fastest raw loop of each run | 87.7 docs/s | runs: 0.61, 0.74, 0.64, 0.64, 0.64 | the fastest raw loop: 135.2 docs/s | 0.64 x | >= 0.85: **missed** |',
    );
    expect(table).toContain(
      '| W1 jobs through the queue (1 office process) against the fastest raw loop of each run | 56.1 docs/s | runs: 0.84, 0.97, 0.91, 0.94, 0.89 | the fastest raw loop: 61.3 docs/s | 0.91 x | >= 0.85: met |',
    );
    expect(table.split('\n')[0]).toMatch(
      /^_Measured 2026-12-07 on 2 cores .*Node 20\.20\.2, LibreOffice 7\.4\.7\.2, docpipe 0\.1\.0\./,
    );
  });

  it('writes a timed figure with its p95 and rounds, and a time target met or missed', () => {
    const table = groupTable(sample(), 'engine');
    expect(table).toContain(
      '| render W1 (fill + convert + check + store, 1 office) | 21.11 ms | p95 28.55, n 40 | raw UNO loop (load, save as PDF): 21.40 ms | 0.99 x | p50 <= 1.2 x fastest raw (uno-frame) + 10 ms = 31.5 ms: met |',
    );
    expect(table).toContain('| 0.02 x | at least 15 x faster: met |');
    expect(groupTable(sample(), 'places')).toContain('| CPU p50 <= 2 ms: **missed** |');
    expect(groupTable(sample(), 'delivery')).toContain('| p95 < 1000 ms: met |');
  });

  it('says in the summary what is met and what is missed, in plain words, with the main chart', () => {
    const text = summary(sample());
    expect(text).toContain(
      '- W1 jobs through the queue, 2 office processes: 87.7 docs/s; missed: 0.64 of the fastest raw loop, target >= 0.85',
    );
    expect(text).toContain(
      '- the queue against libreoffice-convert: 87.7 docs/s; met: 39.0 x libreoffice-convert, 2 at once, target >= 20',
    );
    expect(text).toContain('- a case of one PDF, p50: 34.30 ms; missed, target p50 <= 15 ms');
    expect(text).toContain(
      '![W1 documents a second, 2 office processes](docs/benchmarks/throughput.png)',
    );
    expect(text.split('\n').length).toBeLessThanOrEqual(16);
  });

  it('judges a target again from the numbers, not from what the run said', () => {
    const f = figure('queue.p2.vs-fastest-raw');
    expect(meetsTarget(f)).toBe(false);
    expect(meetsTarget({ ...f, ratio: 0.86 })).toBe(true);
    expect(verdict({ ...f, ratio: 0.86, meets: true })).toBe(
      'met: 0.86 of the fastest raw loop, target >= 0.85',
    );
    expect(meetsTarget(figure('delivery.latency'))).toBe(true);
    const latency = figure('delivery.latency');
    expect(meetsTarget({ ...latency, spread: { p50: 9, p95: 1200, n: 200 } })).toBe(false);
  });

  it('reads the targets the benchmarks write', () => {
    expect(parseTarget('p95 < 1000 ms')).toEqual({
      text: 'p95 < 1000 ms',
      op: '<',
      value: 1000,
      on: 'p95',
    });
    expect(parseTarget('at least 15 x faster')).toMatchObject({ op: '<=', on: 'ratio' });
    expect(parseTarget('at least 15 x faster')!.value).toBeCloseTo(1 / 15);
    expect(parseTarget('30 to 100 ms CPU')).toMatchObject({ op: 'between', value: 30, max: 100 });
    expect(parseTarget('p50 at most 300 ms over node -e 0 (measured: +88 ms)', 49)).toEqual({
      text: 'p50 at most 300 ms over node -e 0',
      op: '<=',
      value: 349,
      on: 'value',
    });
  });

  it("makes run.ts's rows and rates figures with unique ids, and its text rows notes", () => {
    const stats = { n: 10, p50: 2, p95: 3, mean: 2 };
    const { figures, notes } = figuresFromRun({
      rows: [
        { group: 'engine', name: 'render W1, same as above', docpipe: stats },
        { group: 'engine', name: 'render W1, same as above (again)', docpipe: stats },
      ],
      throughput: [
        { name: 'fair sharing', group: 'fairness', perSecond: NaN, note: 'B waited 88 ms' },
        { id: 'q', name: 'queue', perSecond: 80, runs: [79, 80, 81] },
      ],
    });
    expect(figures.map((f) => f.id)).toEqual([
      'engine.render-w1-same-as-above',
      'engine.render-w1-same-as-above-2',
      'q',
    ]);
    expect(figures[2]).toMatchObject({ group: 'throughput', unit: 'docs/s', value: 80 });
    expect(notes).toEqual([{ group: 'fairness', name: 'fair sharing', text: 'B waited 88 ms' }]);
  });
});

describe('regenerating README.md and docs/benchmarks.md between their markers', () => {
  const readme = [
    '# docpipe',
    'prose before',
    '<!-- bench:summary:start -->',
    'hand-written summary',
    '<!-- bench:summary:end -->',
    'prose after',
    '',
  ].join('\n');
  const docs = [
    '# Benchmarks',
    'why the queue is short',
    '<!-- bench:table:throughput:start -->',
    '| old | table |',
    '<!-- bench:table:throughput:end -->',
    'between',
    '<!-- bench:table:soak:start -->',
    '| a soak measured by hand |',
    '<!-- bench:table:soak:end -->',
    'the end',
    '',
  ].join('\n');

  it('replaces only what lies between the markers, and a second run changes nothing', () => {
    const once = renderTexts(sample(), readme, docs);
    expect(once.readme.startsWith('# docpipe\nprose before\n<!-- bench:summary:start -->\n')).toBe(
      true,
    );
    expect(once.readme.endsWith('\n<!-- bench:summary:end -->\nprose after\n')).toBe(true);
    expect(once.readme).not.toContain('hand-written summary');
    expect(once.docs).not.toContain('| old | table |');
    expect(once.docs).toContain('why the queue is short\n<!-- bench:table:throughput:start -->\n');
    expect(once.docs).toContain('| 0.64 x | >= 0.85: **missed** |');
    // A group the run did not measure keeps what its markers hold.
    expect(once.docs).toContain(
      'between\n<!-- bench:table:soak:start -->\n| a soak measured by hand |',
    );
    expect(once.log).toContain(
      'docs/benchmarks.md: soak: not measured in this run, its table kept',
    );
    expect(once.log).toContain(
      'docs/benchmarks.md: engine: measured, but no bench:table:engine markers',
    );
    const twice = renderTexts(sample(), once.readme, once.docs);
    expect(twice.readme).toBe(once.readme);
    expect(twice.docs).toBe(once.docs);
  });

  it('writes every target at a glance, missed ones in bold, in the order of the tables, with every chart', () => {
    const text = glance(sample(), ['throughput', 'engine']);
    const judged = sample().figures.filter((f) => f.meets !== undefined && f.target);
    const missed = judged.filter((f) => !f.meets).length;
    expect(missed).toBeGreaterThan(0);
    expect(text).toContain(
      `${judged.length - missed} of ${judged.length} targets met, ${missed} missed`,
    );
    const rows = text.split('\n').filter((l) => /^\| (?!part|---)/.test(l));
    expect(rows).toHaveLength(judged.length);
    expect(rows[0]).toMatch(
      /^\| throughput \| .* \| \*\*missed: 0\.64 of the fastest raw loop, target >= 0\.85\*\* \|$/,
    );
    const firstEngine = rows.findIndex((r) => r.startsWith('| engine |'));
    expect(rows.slice(0, firstEngine).every((r) => r.startsWith('| throughput |'))).toBe(true);
    expect(rows.some((r) => r.startsWith('| delivery |'))).toBe(true);
    for (const s of sample().series) expect(text).toContain(`](benchmarks/${s.id}.png)`);
    const docsWithGlance = `# B\n<!-- bench:glance:start -->\nold\n<!-- bench:glance:end -->\n${docs}`;
    const out = renderTexts(sample(), readme, docsWithGlance);
    expect(out.docs).not.toContain('\nold\n');
    expect(out.docs).toContain('targets met');
  });

  it('leaves a file without markers as it is', () => {
    expect(replaceBetween('no markers here\n', 'summary', 'x')).toBeUndefined();
    const out = renderTexts(sample(), 'no markers\n', docs);
    expect(out.readme).toBe('no markers\n');
    expect(out.log).toContain('README.md: no bench:summary markers, left as it is');
  });

  it("keeps the README's summary when the run did not measure the queue", () => {
    const partial = {
      ...sample(),
      figures: sample().figures.filter((f) => f.group !== 'throughput'),
    };
    const out = renderTexts(partial, readme, docs);
    expect(out.readme).toBe(readme);
    expect(out.log).toContain(
      'README.md: queue.p2.vs-fastest-raw not measured in this run, its summary kept',
    );
  });

  it('refuses a results file of another schema version, saying what to do', () => {
    const other = { ...sample(), version: 2 };
    expect(() => parseResults(other, 'old.json')).toThrow(
      'old.json is schema version 2; this docpipe reads version 1: run `npm run bench` again',
    );
    expect(() =>
      parseResults({ date: '2026-11-01', node: 'v20', rows: [], throughput: [] }, 'latest.json'),
    ).toThrow(/latest\.json has no schema version \(a latest\.json written before the report/);
  });

  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-report-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes the files and the charts as PNG, and refuses a quick run unless told', () => {
    mkdirSync(join(work, 'docs'), { recursive: true });
    writeFileSync(join(work, 'README.md'), readme);
    writeFileSync(join(work, 'docs', 'benchmarks.md'), docs);
    const log = renderDocs(work, samplePath);
    expect(log).toContain('chart: docs/benchmarks/throughput.png');
    const png = readFileSync(join(work, 'docs/benchmarks/throughput.png'));
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toContain('missed: 0.64 of the fastest');
    const quick = join(work, 'quick.json');
    writeFileSync(quick, JSON.stringify({ ...sample(), quick: true }));
    expect(() => renderDocs(work, quick)).toThrow(/from a quick run .* pass --allow-quick/);
  });
});

describe('the charts, as SVG', () => {
  it('draws a bar a contender, its value at its end, in proportion, with the target line', () => {
    const series = sample().series.find((s) => s.id === 'throughput') as BarSeries;
    const svg = barChartSvg(series);
    const bars = [
      ...svg.matchAll(
        /<rect class="bar" data-name="([^"]+)" data-value="([^"]+)" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/g,
      ),
    ].map((m) => ({ name: m[1], value: Number(m[2]), width: Number(m[3]) }));
    expect(bars.map((b) => [b.name, b.value])).toEqual([
      ['docpipe, queue', 87.7],
      ['docpipe, HTTP', 93],
      ['office pool alone', 124.5],
      ['raw UNO, reused frame', 135.2],
      ['raw UNO', 101.1],
      ['raw LibreOfficeKit', 64.8],
      ['libreoffice-convert', 2.3],
    ]);
    const w = (name: string) => bars.find((b) => b.name === name)!.width;
    expect(w('docpipe, queue') / w('raw UNO, reused frame')).toBeCloseTo(87.7 / 135.2, 2);
    for (const label of ['>87.7<', '>124.5<', '>2.3<', '>documents a second<'])
      expect(svg).toContain(label);
    expect(svg).toContain('W1 documents a second, 2 office processes</text>');
    expect(svg).toContain('target: &gt;= 0.85 of the fastest raw loop (114.9)');
    expect(svg.match(/class="target"/g)).toHaveLength(1);
  });

  it('draws a line a series with a mark a point, the axes labelled and a legend', () => {
    const series = sample().series.find((s) => s.id === 'cases-memory') as LineSeries;
    const svg = lineChartSvg({ ...series, target: { text: 'at most 400 MB', value: 400 } });
    expect(svg.match(/class="line"/g)).toHaveLength(3);
    expect(svg.match(/class="point"/g)).toHaveLength(6);
    for (const label of ['>cases created<', '>MB<', '>serve (VmRSS)<', '>PostgreSQL (Pss)<'])
      expect(svg).toContain(label);
    expect(svg).toContain('>10,000<');
    expect(svg).toContain('>at most 400 MB<');
  });

  it('puts round ticks on an axis from 0 past the highest value', () => {
    expect(ticks(0, 135.2)).toEqual([0, 50, 100, 150]);
    expect(ticks(0, 10_000)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
  });
});
