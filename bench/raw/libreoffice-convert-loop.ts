/**
 * Raw loop baseline: the npm package `libreoffice-convert`, as its README uses it.
 *
 * Usage: node dist/bench/raw/libreoffice-convert-loop.js <file.docx> <rounds> <warmup>
 *
 * Every convert(buffer, '.pdf', undefined) call writes the input to a temp dir and runs a
 * cold `soffice --headless --convert-to` with a fresh profile, so there is no warm office:
 * each per-document time includes a whole office start, and startMs is reported as 0.
 * Prints one JSON line:
 *   {"kind":"libreoffice-convert","n":N,"p50":ms,"p95":ms,"mean":ms,"startMs":0,"ok":N}
 * Slow (over a second per call): use few rounds, e.g. 5 rounds after 1 warm-up.
 */
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import libreofficeConvert from 'libreoffice-convert';
import { isPdf, parseArgs, summarize } from './common.js';

const convert = promisify(libreofficeConvert.convert);

async function main(): Promise<number> {
  const { docx, rounds, warmup } = parseArgs('libreoffice-convert-loop.js', process.argv.slice(2));
  const input = readFileSync(docx);
  const times: number[] = [];
  let ok = 0;
  for (let i = 0; i < warmup + rounds; i++) {
    const t0 = performance.now();
    const pdf = await convert(input, '.pdf', undefined);
    const elapsed = performance.now() - t0;
    const good = isPdf(pdf);
    if (i >= warmup) {
      times.push(elapsed);
      if (good) ok++;
    } else if (!good) {
      process.stderr.write(`warm-up conversion ${i} produced no valid PDF\n`);
    }
  }
  const result = summarize('libreoffice-convert', times, 0, ok);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return ok === times.length ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `libreoffice-convert-loop: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
