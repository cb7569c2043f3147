/**
 * `npm run bench:report [-- results.json]` (and the end of `npm run bench`): the README's
 * benchmark summary, docs/benchmarks.md's tables and the charts in docs/benchmarks/, regenerated
 * from latest.json (bench/report/results.ts), so that no number in them is copied by hand. Only
 * what lies between the markers is written:
 *
 *   README.md          <!-- bench:summary:start --> ... <!-- bench:summary:end -->
 *   docs/benchmarks.md <!-- bench:glance:start --> ... <!-- bench:glance:end -->
 *   docs/benchmarks.md <!-- bench:table:<group>:start --> ... <!-- bench:table:<group>:end -->
 *
 * The prose around them stays hand-written. A group without figures in the results (a part the
 * run skipped) keeps what its markers hold.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeCharts } from './charts.js';
import { readResults, type Figure, type Machine, type Note, type Results } from './results.js';

/** The figures of the README's summary, in order, with a short name; those not measured are left out. */
export const SUMMARY_FIGURES: readonly { id: string; name: string }[] = [
  { id: 'queue.p2.vs-fastest-raw', name: 'W1 jobs through the queue, 2 office processes' },
  { id: 'queue.p2.vs-libreoffice-convert', name: 'the queue against libreoffice-convert' },
  { id: 'queue.p2.vs-carbone', name: 'the queue against Carbone 3 (2 factories)' },
  { id: 'http.vs-queue', name: 'W1 through HTTP against the queue' },
  { id: 'cases.w1.vs-convert', name: 'a v3 case of W1 and 2 recipients against convert' },
  { id: 'cases.pdf.latency', name: 'a case of one PDF, p50' },
  { id: 'delivery.live', name: 'webhook deliveries while cases are created' },
  { id: 'fairness.wait', name: "company B's document behind company A's batch" },
  { id: 'growth.flatness', name: 'time per page from 10 to 300 pages, highest over lowest' },
  { id: 'soak.rss-growth.worker', name: "the worker's memory over the soak, end over start" },
  { id: 'cold-start.first-conversion', name: '`docpipe start` to its first finished conversion' },
];

/** The chart the README shows. */
export const SUMMARY_CHART = 'throughput';
/** Where the charts go, from the project's root; the README and the docs link them there. */
export const CHARTS_DIR = 'docs/benchmarks';

/** A figure's number in its unit, with as many digits as the tables have always shown. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'ms') return value >= 1000 ? value.toFixed(0) : value.toFixed(2);
  if (unit === '') return value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return value >= 1000 ? value.toFixed(0) : value.toFixed(1);
}

const withUnit = (value: number, unit: string) =>
  unit ? `${formatValue(value, unit)} ${unit}` : formatValue(value, unit);

export const formatRatio = (r: number) => (r >= 10 ? r.toFixed(1) : r.toFixed(2));

/** `of` a baseline below 1, `x` a baseline above: 0.64 of the raw loop, 39.0 x libreoffice-convert. */
const ratioOf = (f: Figure) =>
  `${formatRatio(f.ratio!)}${f.ratio! < 1 ? ' of' : ' x'} ${f.baseline?.name ?? 'the baseline'}`;

/**
 * `met` or `missed` and what was measured against what was wanted, in plain words: `missed: 0.64
 * of the fastest raw loop, target >= 0.85`. Without the value itself where `shown` says the reader
 * has it already.
 */
export function verdict(f: Figure, shown = false): string | undefined {
  if (!f.target || f.meets === undefined) return undefined;
  const word = f.meets ? 'met' : 'missed';
  const t = f.target;
  if (t.on === 'ratio' && f.ratio !== undefined) return `${word}: ${ratioOf(f)}, target ${t.text}`;
  if (t.on === 'p95' && f.spread && 'p95' in f.spread)
    return `${word}: p95 ${withUnit(f.spread.p95, f.unit)}, target ${t.text}`;
  return shown
    ? `${word}, target ${t.text}`
    : `${word}: ${withUnit(f.value, f.unit)}, target ${t.text}`;
}

function spreadText(f: Figure): string {
  const s = f.spread;
  if (!s) return '';
  if ('runs' in s)
    return `runs: ${s.runs.map((x) => (f.ratio !== undefined && f.target?.on === 'ratio' ? formatRatio(x) : formatValue(x, f.unit))).join(', ')}`;
  const parts = [`p95 ${formatValue(s.p95, f.unit)}`];
  if (s.min !== undefined && s.max !== undefined)
    parts.push(`${formatValue(s.min, f.unit)} to ${formatValue(s.max, f.unit)}`);
  if (s.n > 0) parts.push(`n ${s.n}`);
  return parts.join(', ');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function machineLine(m: Machine, date: string): string {
  const commit = m.gitCommit ? ` at ${m.gitCommit}` : '';
  const load = m.loadAverage ? `, load average ${m.loadAverage[0]} at the start` : '';
  return `Measured ${date.slice(0, 10)} on ${m.cores} cores (${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}${load}), Node ${m.node.replace(/^v/, '')}, LibreOffice ${m.libreoffice ?? 'not found'}, docpipe ${m.docpipe}${commit}.`;
}

/** One group's table: every figure with its spread, its baseline and ratio, its target. */
export function groupTable(results: Results, group: string): string {
  const figures = results.figures.filter((f) => f.group === group);
  const lines = [
    `_${machineLine(results.machine, results.date)} From \`bench/results/latest.json\` by \`npm run bench:report\`._`,
    '',
    '| measure | docpipe | spread | against | ratio | target |',
    '| --- | --- | --- | --- | --- | --- |',
    ...figures.map((f) => {
      const against = f.baseline ? `${f.baseline.name}: ${withUnit(f.baseline.value, f.unit)}` : '';
      const ratio = f.ratio !== undefined ? `${formatRatio(f.ratio)} x` : '';
      const target = f.target
        ? `${f.target.text}: ${f.meets === undefined ? 'not judged' : f.meets ? 'met' : '**missed**'}`
        : '';
      return `| ${[f.name, withUnit(f.value, f.unit), spreadText(f), against, ratio, target].map(cell).join(' | ')} |`;
    }),
  ];
  const notes = results.notes.filter((n: Note) => n.group === group);
  if (notes.length > 0) lines.push('', ...notes.map((n) => `- ${n.name}: ${n.text}`));
  return lines.join('\n');
}

/** The README's summary: the machine, the main figures met or missed, the main chart. */
export function summary(results: Results): string {
  const byId = new Map(results.figures.map((f) => [f.id, f]));
  const main = SUMMARY_FIGURES.flatMap(({ id, name }) => {
    const f = byId.get(id);
    return f ? [{ ...f, name }] : [];
  });
  const lines = [
    `${machineLine(results.machine, results.date)} Every figure with its spread, the baselines and how to read them: [docs/benchmarks.md](docs/benchmarks.md).`,
  ];
  const chart = results.series.find((s) => s.id === SUMMARY_CHART);
  if (chart) lines.push('', `![${chart.title}](${CHARTS_DIR}/${chart.id}.png)`);
  lines.push(
    '',
    ...main.map((f) => {
      const v = verdict(f, true);
      return `- ${f.name}: ${withUnit(f.value, f.unit)}${v ? `; ${v}` : ''}`;
    }),
  );
  return lines.join('\n');
}

/**
 * docs/benchmarks.md's report at a glance: every target of the run, met or missed, one line each in
 * the order of the page's tables (a group without a table last), and every chart. A reader
 * choosing a pipeline reads this; the tables below it hold the spreads and baselines.
 */
export function glance(results: Results, groupOrder: readonly string[] = []): string {
  const rank = (g: string) => {
    const i = groupOrder.indexOf(g);
    return i < 0 ? groupOrder.length : i;
  };
  const judged = results.figures
    .filter((f) => f.target && f.meets !== undefined)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f.group) - rank(b.f.group) || a.i - b.i)
    .map(({ f }) => f);
  const missed = judged.filter((f) => !f.meets).length;
  const lines = [
    `_${machineLine(results.machine, results.date)} From \`bench/results/latest.json\` by \`npm run bench:report\`._`,
    '',
    `${judged.length - missed} of ${judged.length} targets met, ${missed} missed (why each is missed: the section of its group below).`,
    '',
    '| part | measure | docpipe | verdict |',
    '| --- | --- | --- | --- |',
    ...judged.map(
      (f) =>
        `| ${[f.group, f.name, withUnit(f.value, f.unit), f.meets ? verdict(f)! : `**${verdict(f)!}**`].map(cell).join(' | ')} |`,
    ),
  ];
  if (results.series.length > 0)
    lines.push('', ...results.series.map((s) => `![${s.title}](benchmarks/${s.id}.png)`));
  return lines.join('\n');
}

const startMarker = (name: string) => `<!-- bench:${name}:start -->`;
const endMarker = (name: string) => `<!-- bench:${name}:end -->`;

/** `text` with what lies between the markers `name` replaced; undefined if it has no such pair. */
export function replaceBetween(text: string, name: string, content: string): string | undefined {
  const start = text.indexOf(startMarker(name));
  const end = text.indexOf(endMarker(name));
  if (start < 0 || end < start) return undefined;
  // Blank lines around it, so that Markdown reads the block apart from the comments.
  return `${text.slice(0, start + startMarker(name).length)}\n\n${content}\n\n${text.slice(end)}`;
}

/** The groups `text` has table markers for. */
export function tableGroups(text: string): string[] {
  return [...text.matchAll(/<!-- bench:table:([\w.-]+):start -->/g)].map((m) => m[1]!);
}

/** README.md and docs/benchmarks.md with their blocks regenerated, and what was done. */
export function renderTexts(
  results: Results,
  readme: string,
  docs: string,
): { readme: string; docs: string; log: string[] } {
  const log: string[] = [];
  // A run that skipped the queue (BENCH_QUEUE=0) would leave the README without its headline.
  const headline = SUMMARY_FIGURES[0]!.id;
  const measured = results.figures.some((f) => f.id === headline);
  const newReadme = measured ? replaceBetween(readme, 'summary', summary(results)) : undefined;
  if (!measured) log.push(`README.md: ${headline} not measured in this run, its summary kept`);
  else if (newReadme === undefined) log.push('README.md: no bench:summary markers, left as it is');
  let newDocs = docs;
  const glanceText = glance(results, tableGroups(docs));
  const withGlance = replaceBetween(newDocs, 'glance', glanceText);
  if (withGlance !== undefined) newDocs = withGlance;
  const groups = new Set(results.figures.map((f) => f.group));
  for (const group of tableGroups(docs)) {
    if (!groups.has(group)) {
      log.push(`docs/benchmarks.md: ${group}: not measured in this run, its table kept`);
      continue;
    }
    newDocs = replaceBetween(newDocs, `table:${group}`, groupTable(results, group)) ?? newDocs;
    groups.delete(group);
  }
  for (const group of groups)
    log.push(`docs/benchmarks.md: ${group}: measured, but no bench:table:${group} markers`);
  return { readme: newReadme ?? readme, docs: newDocs, log };
}

/** Writes the README's summary, the docs' tables and the charts from `resultsPath`. */
export function renderDocs(
  root: string,
  resultsPath: string,
  options: { allowQuick?: boolean } = {},
): string[] {
  const results = readResults(resultsPath);
  if (results.quick && !options.allowQuick)
    throw new Error(
      `${resultsPath} is from a quick run (npm run bench -- --quick), whose sizes are too small for the docs; pass --allow-quick to render it anyway`,
    );
  const readmePath = join(root, 'README.md');
  const docsPath = join(root, 'docs', 'benchmarks.md');
  const out = renderTexts(
    results,
    readFileSync(readmePath, 'utf8'),
    readFileSync(docsPath, 'utf8'),
  );
  writeFileSync(readmePath, out.readme);
  writeFileSync(docsPath, out.docs);
  const charts = writeCharts(results.series, join(root, CHARTS_DIR));
  return [
    ...out.log,
    `README.md and docs/benchmarks.md regenerated from ${relative(root, resultsPath)}`,
    ...charts.map((c) => `chart: ${relative(root, c)}`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { projectRoot } = await import('../../src/base/paths/index.js');
  const root = projectRoot();
  const args = process.argv.slice(2);
  const path = args.find((a) => !a.startsWith('--')) ?? join(root, 'bench/results/latest.json');
  try {
    const log = renderDocs(root, resolve(path), {
      allowQuick: args.includes('--allow-quick'),
    });
    process.stdout.write(`${log.join('\n')}\n`);
  } catch (e) {
    process.stderr.write(`bench:report: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
