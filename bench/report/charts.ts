/**
 * The report's charts, drawn as SVG by code from latest.json's series (bench/report/results.ts)
 * and turned into PNG by resvg (no browser), for the README and docs/benchmarks.md: a horizontal
 * bar chart (throughput by contender) and a line chart (x/y series: time per page against pages,
 * memory over a soak, deliveries a second against batch size), each with its axes' labels and
 * units, a legend, and the target's line where the series has one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import type { BarSeries, LineSeries, Series, Spread } from './results.js';

const WIDTH = 800;
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
const INK = '#1f2328';
const MUTED = '#59636e';
const GRID = '#d8dee4';
const DOCPIPE = '#0969da';
const OTHER = '#8c959f';
const TARGET = '#cf222e';
/** Lines of a line chart, told apart by colour and by their marks' shape. */
const PALETTE = [
  '#0969da',
  '#bf8700',
  '#1a7f37',
  '#8250df',
  '#a40e26',
  '#57606a',
  '#bc4c00',
  '#0a3069',
  '#bf3989',
];

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const r1 = (x: number) => Math.round(x * 10) / 10;

/** A number as a label: no more digits than its size needs. */
export function label(x: number): string {
  const a = Math.abs(x);
  if (a >= 1000) return x.toLocaleString('en', { maximumFractionDigits: 0 });
  if (a >= 10) return x.toFixed(1).replace(/\.0$/, '');
  if (a === 0) return '0';
  return x.toFixed(2).replace(/\.?0+$/, '');
}

/** Round tick values from 0 (or `min`) to at least `max`: 1, 2 or 5 times a power of ten apart. */
export function ticks(min: number, max: number, count = 5): number[] {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out: number[] = [];
  for (let v = Math.floor(min / step) * step; v < max + step * 0.999; v += step)
    out.push(Math.round(v / step) * step);
  return out;
}

function text(
  x: number,
  y: number,
  s: string,
  opts: {
    size?: number;
    anchor?: 'start' | 'middle' | 'end';
    fill?: string;
    bold?: boolean;
    rotate?: boolean;
  } = {},
): string {
  const rot = opts.rotate ? ` transform="rotate(-90 ${r1(x)} ${r1(y)})"` : '';
  return `<text x="${r1(x)}" y="${r1(y)}" font-size="${opts.size ?? 13}" text-anchor="${opts.anchor ?? 'start'}" fill="${opts.fill ?? INK}"${opts.bold ? ' font-weight="bold"' : ''}${rot}>${esc(s)}</text>`;
}

function frame(height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="${FONT}">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    text(WIDTH / 2, 28, title, { size: 17, anchor: 'middle', bold: true }),
    ...body,
    '</svg>',
  ].join('\n');
}

/** The lowest and highest of a spread (each run, or min and max), where it has them. */
function range(spread: Spread | undefined): [number, number] | undefined {
  if (!spread) return undefined;
  if ('runs' in spread)
    return spread.runs.length > 1
      ? [Math.min(...spread.runs), Math.max(...spread.runs)]
      : undefined;
  return spread.min !== undefined && spread.max !== undefined
    ? [spread.min, spread.max]
    : undefined;
}

/** Horizontal bars, one a contender: docpipe's in blue, the others in grey, values at their ends. */
export function barChartSvg(s: BarSeries): string {
  const left = 210;
  const right = 70;
  const top = 70;
  const barH = 26;
  const gap = 14;
  const plotH = s.bars.length * (barH + gap);
  const height = top + plotH + 80;
  const plotW = WIDTH - left - right;
  const highest = Math.max(
    ...s.bars.map((b) => range(b.spread)?.[1] ?? b.value),
    ...s.bars.map((b) => b.value),
    s.target?.value ?? 0,
  );
  const axis = ticks(0, highest);
  const xMax = axis.at(-1)!;
  const x = (v: number) => left + (v / xMax) * plotW;
  const body: string[] = [];
  for (const t of axis) {
    body.push(
      `<line x1="${r1(x(t))}" y1="${top - 6}" x2="${r1(x(t))}" y2="${top + plotH}" stroke="${GRID}"/>`,
    );
    body.push(text(x(t), top + plotH + 18, label(t), { size: 12, anchor: 'middle', fill: MUTED }));
  }
  s.bars.forEach((b, i) => {
    const y = top + i * (barH + gap);
    const fill = b.docpipe ? DOCPIPE : OTHER;
    body.push(text(left - 10, y + barH / 2 + 5, b.name, { anchor: 'end' }));
    body.push(
      `<rect class="bar" data-name="${esc(b.name)}" data-value="${b.value}" x="${left}" y="${y}" width="${r1(Math.max(1, x(b.value) - left))}" height="${barH}" fill="${fill}"/>`,
    );
    const spread = range(b.spread);
    if (spread) {
      const cy = y + barH / 2;
      body.push(
        `<path class="spread" d="M${r1(x(spread[0]))} ${cy}H${r1(x(spread[1]))}M${r1(x(spread[0]))} ${cy - 6}V${cy + 6}M${r1(x(spread[1]))} ${cy - 6}V${cy + 6}" stroke="${INK}" stroke-width="1.5" fill="none"/>`,
      );
    }
    const end = Math.max(x(b.value), spread ? x(spread[1]) : 0);
    body.push(text(end + 6, y + barH / 2 + 5, label(b.value), { size: 12, bold: true }));
  });
  body.push(
    `<line x1="${left}" y1="${top - 6}" x2="${left}" y2="${top + plotH}" stroke="${INK}"/>`,
  );
  body.push(text(left + plotW / 2, top + plotH + 42, s.yLabel, { anchor: 'middle', fill: MUTED }));
  const legendY = 50;
  const legend: [string, string, boolean][] = [
    ['docpipe', DOCPIPE, false],
    ['baselines', OTHER, false],
  ];
  if (s.target) {
    const tx = x(s.target.value);
    body.push(
      `<line class="target" x1="${r1(tx)}" y1="${top - 6}" x2="${r1(tx)}" y2="${top + plotH}" stroke="${TARGET}" stroke-width="2" stroke-dasharray="6 4"/>`,
    );
    legend.push([`${s.target.text} (${label(s.target.value)})`, TARGET, true]);
  }
  if (s.bars.some((b) => range(b.spread))) legend.push(['lowest to highest run', INK, true]);
  body.push(legendRows(legend, legendY));
  return frame(height, s.title, body);
}

/** The legend's entries, centred, in as many rows as the chart's width needs. */
function legendRows(entries: [string, string, boolean][], y: number): string {
  const widths = entries.map(([name]) => 28 + name.length * 7 + 18);
  const rows: number[][] = [[]];
  let used = 0;
  widths.forEach((w, i) => {
    if (used + w > WIDTH - 40 && rows.at(-1)!.length > 0) {
      rows.push([]);
      used = 0;
    }
    rows.at(-1)!.push(i);
    used += w;
  });
  const out: string[] = [];
  rows.forEach((row, r) => {
    const rowY = y + r * LEGEND_ROW;
    let x = (WIDTH - row.reduce((sum, i) => sum + widths[i]!, 0)) / 2;
    for (const i of row) {
      const [name, colour, isLine] = entries[i]!;
      out.push(
        isLine
          ? `<line x1="${r1(x)}" y1="${rowY - 4}" x2="${r1(x + 20)}" y2="${rowY - 4}" stroke="${colour}" stroke-width="2"${colour === TARGET ? ' stroke-dasharray="6 4"' : ''}/>`
          : `<rect x="${r1(x)}" y="${rowY - 11}" width="20" height="12" fill="${colour}"/>`,
      );
      out.push(text(x + 26, rowY, name, { size: 12, fill: MUTED }));
      x += widths[i]!;
    }
  });
  return `<g class="legend">${out.join('')}</g>`;
}

/** How many rows legendRows takes for `names`. */
function legendRowCount(names: readonly string[]): number {
  let rows = 1;
  let used = 0;
  for (const name of names) {
    const w = 28 + name.length * 7 + 18;
    if (used + w > WIDTH - 40 && used > 0) {
      rows++;
      used = 0;
    }
    used += w;
  }
  return rows;
}

const LEGEND_ROW = 18;
/** A line of more points than this is drawn without marks: they would only blot it. */
const MAX_MARKED_POINTS = 40;

const MARKS = ['circle', 'square', 'diamond', 'triangle'] as const;

function mark(kind: (typeof MARKS)[number], x: number, y: number, colour: string): string {
  const [a, b] = [r1(x), r1(y)];
  switch (kind) {
    case 'circle':
      return `<circle class="point" cx="${a}" cy="${b}" r="4" fill="${colour}"/>`;
    case 'square':
      return `<rect class="point" x="${r1(x - 4)}" y="${r1(y - 4)}" width="8" height="8" fill="${colour}"/>`;
    case 'diamond':
      return `<path class="point" d="M${a} ${r1(y - 5)}L${r1(x + 5)} ${b}L${a} ${r1(y + 5)}L${r1(x - 5)} ${b}Z" fill="${colour}"/>`;
    case 'triangle':
      return `<path class="point" d="M${a} ${r1(y - 5)}L${r1(x + 5)} ${r1(y + 4)}L${r1(x - 5)} ${r1(y + 4)}Z" fill="${colour}"/>`;
  }
}

/** x/y lines on linear axes from 0, each line's points marked, the target as a dashed line. */
export function lineChartSvg(s: LineSeries): string {
  const left = 80;
  const right = 30;
  const legendNames = [...s.lines.map((l) => l.name), ...(s.target ? [s.target.text] : [])];
  const legendExtra = (legendRowCount(legendNames) - 1) * LEGEND_ROW;
  const top = 80 + legendExtra;
  const plotH = 300;
  const height = top + plotH + 70;
  const plotW = WIDTH - left - right;
  const xs = s.lines.flatMap((l) => l.points.map((p) => p[0]));
  const ys = s.lines.flatMap((l) => l.points.map((p) => p[1]));
  const xAxis = ticks(0, Math.max(...xs, 1));
  const yAxis = ticks(0, Math.max(...ys, s.target?.value ?? 0, 1));
  const [xMax, yMax] = [xAxis.at(-1)!, yAxis.at(-1)!];
  const x = (v: number) => left + (v / xMax) * plotW;
  const y = (v: number) => top + plotH - (v / yMax) * plotH;
  const body: string[] = [];
  for (const t of yAxis) {
    body.push(
      `<line x1="${left}" y1="${r1(y(t))}" x2="${left + plotW}" y2="${r1(y(t))}" stroke="${GRID}"/>`,
    );
    body.push(text(left - 8, y(t) + 4, label(t), { size: 12, anchor: 'end', fill: MUTED }));
  }
  for (const t of xAxis)
    body.push(text(x(t), top + plotH + 18, label(t), { size: 12, anchor: 'middle', fill: MUTED }));
  body.push(
    `<path d="M${left} ${top - 6}V${top + plotH}H${left + plotW}" stroke="${INK}" fill="none"/>`,
  );
  body.push(text(left + plotW / 2, top + plotH + 44, s.xLabel, { anchor: 'middle', fill: MUTED }));
  body.push(text(22, top + plotH / 2, s.yLabel, { anchor: 'middle', fill: MUTED, rotate: true }));
  const legend: [string, string, boolean][] = [];
  s.lines.forEach((l, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const d = l.points.map((p, j) => `${j ? 'L' : 'M'}${r1(x(p[0]))} ${r1(y(p[1]))}`).join('');
    body.push(
      `<path class="line" data-name="${esc(l.name)}" d="${d}" stroke="${colour}" stroke-width="2.5" fill="none"/>`,
    );
    if (l.points.length <= MAX_MARKED_POINTS)
      for (const p of l.points) body.push(mark(MARKS[i % MARKS.length]!, x(p[0]), y(p[1]), colour));
    legend.push([l.name, colour, true]);
  });
  if (s.target) {
    body.push(
      `<line class="target" x1="${left}" y1="${r1(y(s.target.value))}" x2="${left + plotW}" y2="${r1(y(s.target.value))}" stroke="${TARGET}" stroke-width="2" stroke-dasharray="6 4"/>`,
    );
    legend.push([s.target.text, TARGET, true]);
  }
  body.push(legendRows(legend, 54));
  return frame(height, s.title, body);
}

export function chartSvg(s: Series): string {
  return s.kind === 'bar' ? barChartSvg(s) : lineChartSvg(s);
}

/** An SVG as a PNG at twice its size, with the system's fonts (DejaVu Sans on Debian). */
export function svgToPng(svg: string): Buffer {
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  return Buffer.from(png);
}

/** Every series as `<dir>/<id>.png`; the paths written. */
export function writeCharts(series: readonly Series[], dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return series.map((s) => {
    const path = join(dir, `${s.id}.png`);
    writeFileSync(path, svgToPng(chartSvg(s)));
    return path;
  });
}
