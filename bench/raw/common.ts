/** Shared bits of the raw warm-loop baselines in bench/raw (the Node ones; uno-loop.py mirrors them). */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export type RawLoopKind = 'uno' | 'uno-frame' | 'lok' | 'libreoffice-convert';

/** The one JSON line each raw loop prints. Times are per-document milliseconds. */
export interface RawLoopResult {
  kind: RawLoopKind;
  /** Timed conversions (warm-up excluded). */
  n: number;
  p50: number;
  p95: number;
  mean: number;
  /** Time to get the office ready before the first conversion (0 when every call starts its own). */
  startMs: number;
  /** Timed conversions whose output was a non-empty file starting with `%PDF-`. */
  ok: number;
}

/** Same percentile rule as bench/stats.ts: times[min(n - 1, floor(q * n))]. */
export function summarize(
  kind: RawLoopKind,
  times: number[],
  startMs: number,
  ok: number,
): RawLoopResult {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { kind, n: sorted.length, p50: at(0.5), p95: at(0.95), mean, startMs, ok };
}

/** `<file.docx> <rounds> <warmup>`; exits with 2 and a usage line on bad arguments. */
export function parseArgs(
  script: string,
  argv: string[],
): { docx: string; rounds: number; warmup: number } {
  const [docxArg, roundsArg, warmupArg] = argv;
  const rounds = Number(roundsArg);
  const warmup = Number(warmupArg);
  if (
    docxArg === undefined ||
    !Number.isInteger(rounds) ||
    rounds < 1 ||
    !Number.isInteger(warmup) ||
    warmup < 0
  ) {
    process.stderr.write(`usage: ${script} <file.docx> <rounds> <warmup>\n`);
    process.exit(2);
  }
  const docx = resolve(docxArg);
  statSync(docx); // fail early, with ENOENT, on a missing input
  return { docx, rounds, warmup };
}

export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length > 0 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

export function isPdfFile(path: string): boolean {
  return statSync(path).size > 0 && isPdf(readFileSync(path));
}
