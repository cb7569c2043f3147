/**
 * The schema of bench/results/latest.json (issue 37's report): the machine, every figure with its
 * spread, and the series the charts are drawn from. `npm run bench` writes it (bench/run.ts,
 * through bench/report/from-run.ts); bench/report/render-docs.ts reads it back into the README, the
 * tables of docs/benchmarks.md and the charts, so that no number is copied by hand.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';

/** Raised whenever a field changes meaning or goes; a reader refuses any other version. */
export const RESULTS_VERSION = 1;

export interface Machine {
  cores: number;
  memoryGiB: number;
  cpuModel: string;
  /** The kernel and, where /etc/os-release says, the distribution. */
  os: string;
  node: string;
  /** `soffice --version` (its number), else the installed package's version; null if none. */
  libreoffice: string | null;
  /** package.json's version. */
  docpipe: string;
  gitCommit: string | null;
  /** At the start of the run: this machine is shared, and a loaded one measures slower. */
  loadAverage?: number[];
}

/** Percentiles of many timed rounds, or each run's value where a figure is a median of runs. */
export type Spread =
  { p50: number; p95: number; min?: number; max?: number; n: number } | { runs: number[] };

export type TargetOp = '<=' | '<' | '>=' | '>' | 'between';

export interface Target {
  /** As a reader should see it, e.g. `>= 0.85` or `p50 <= 2 ms`. */
  text: string;
  op: TargetOp;
  value: number;
  /** The upper bound of `between`. */
  max?: number;
  /** What the target is on: the figure's value, its p95 (in `spread`) or its ratio. */
  on: 'value' | 'p95' | 'ratio';
}

export interface Figure {
  /** Stable across runs and sizes (`queue.p2.throughput`): a chart or the summary finds it by it. */
  id: string;
  /** The table of docs/benchmarks.md it belongs to (`<!-- bench:table:<group>:start -->`). */
  group: string;
  name: string;
  /** `ms`, `docs/s`, `events/s`, `KB`, `MB` or `` for a bare ratio. */
  unit: string;
  value: number;
  spread?: Spread;
  baseline?: { name: string; value: number };
  /** value / baseline's value, or the median of each run's ratio where runs were interleaved. */
  ratio?: number;
  target?: Target;
  meets?: boolean;
}

export interface ChartTarget {
  text: string;
  value: number;
}

export interface LineSeries {
  kind: 'line';
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  lines: { name: string; points: [number, number][] }[];
  /** A horizontal line at a target's value. */
  target?: ChartTarget;
}

export interface BarSeries {
  kind: 'bar';
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  bars: { name: string; value: number; spread?: Spread; docpipe?: boolean }[];
  target?: ChartTarget;
}

export type Series = LineSeries | BarSeries;

/** What a run measured that is text, not a figure (fair sharing's account, CPU per request). */
export interface Note {
  group: string;
  name: string;
  text: string;
}

export interface Results {
  version: typeof RESULTS_VERSION;
  date: string;
  /** `npm run bench -- --quick`: smaller sizes, numbers not for the docs. */
  quick: boolean;
  machine: Machine;
  figures: Figure[];
  series: Series[];
  notes: Note[];
  /** The case, delivery and dashboard benchmarks' own results, as they report them. */
  details?: Record<string, unknown>;
}

/** The version as a run wrote it, with what a reader of another version must be told. */
export function parseResults(json: unknown, from = 'the results file'): Results {
  const o = json as Partial<Omit<Results, 'version'>> & { version?: unknown; rows?: unknown };
  if (typeof o !== 'object' || o === null) throw new Error(`${from} is not a JSON object`);
  if (o.version === undefined)
    throw new Error(
      `${from} has no schema version${o.rows ? ' (a latest.json written before the report existed)' : ''}; this docpipe reads version ${RESULTS_VERSION}: run \`npm run bench\` again`,
    );
  if (o.version !== RESULTS_VERSION)
    throw new Error(
      `${from} is schema version ${JSON.stringify(o.version)}; this docpipe reads version ${RESULTS_VERSION}: run \`npm run bench\` again`,
    );
  if (!Array.isArray(o.figures) || !Array.isArray(o.series) || typeof o.machine !== 'object')
    throw new Error(`${from} is version ${RESULTS_VERSION} but lacks machine, figures or series`);
  return { notes: [], ...o } as unknown as Results;
}

export function readResults(path: string): Results {
  return parseResults(JSON.parse(readFileSync(path, 'utf8')), path);
}

/** Whether `target` holds for the figure; undefined when what it is on was not measured. */
export function meetsTarget(figure: Omit<Figure, 'meets'>): boolean | undefined {
  const t = figure.target;
  if (!t) return undefined;
  const x =
    t.on === 'ratio'
      ? figure.ratio
      : t.on === 'p95'
        ? figure.spread && 'p95' in figure.spread
          ? figure.spread.p95
          : undefined
        : figure.value;
  if (x === undefined || !Number.isFinite(x)) return undefined;
  switch (t.op) {
    case '<=':
      return x <= t.value;
    case '<':
      return x < t.value;
    case '>=':
      return x >= t.value;
    case '>':
      return x > t.value;
    case 'between':
      return x >= t.value && x <= (t.max ?? Infinity);
  }
}

function run(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

function osName(): string {
  let distro = '';
  try {
    distro = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? '';
  } catch {
    // Not Linux, or no os-release: the kernel alone says enough.
  }
  return `${type()} ${release()}${distro ? ` (${distro})` : ''}`;
}

/** LibreOffice's version: `soffice --version` (e.g. 7.4.7.2), else Debian's package. */
export function libreofficeVersion(): string | null {
  const soffice = run(process.env.DOCPIPE_SOFFICE ?? 'soffice', ['--version']);
  const fromSoffice = soffice && /LibreOffice\s+([\d.]+)/.exec(soffice)?.[1];
  if (fromSoffice) return fromSoffice;
  const pkg = run('dpkg-query', ['-W', '-f', '${Version}', 'libreoffice-core']);
  return pkg ? pkg.replace(/^\d+:/, '').replace(/[-+].*$/, '') : null;
}

/** The machine a run is made on, as latest.json records it. */
export function machineInfo(root: string): Machine {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return {
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    os: osName(),
    node: process.version,
    libreoffice: libreofficeVersion(),
    docpipe: pkg.version,
    gitCommit: run('git', ['-C', root, 'rev-parse', '--short=12', 'HEAD']),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
