/**
 * Contender: Carbone 3 (npm `carbone`) filling W1 and converting it to PDF with its own warm
 * LibreOffice factories, as its README sets it up for a server.
 *
 * Usage: node dist/bench/raw/carbone-loop.js <template.docx> <tags.json> <rounds> <warmup> <factories> <first.pdf>
 *
 * Makes W1's Carbone template from docpipe's docxtemplater template (carbone-template.ts), starts
 * `factories` factories (`carbone.set({ factories, startFactory: true })`: one soffice.bin and one
 * python converter each), then keeps `factories` renders in flight, each doing `warmup + rounds`
 * carbone.render(template, data, { convertTo: 'pdf' }) calls: every call fills the template
 * (Carbone reads and parses it each time, as it does) and has a factory convert the result.
 * Writes the first timed PDF to <first.pdf> (the benchmark checks its text for the filled values)
 * and prints one JSON line, times per document in milliseconds over the timed renders:
 *   {"kind":"carbone","n":N,"p50":ms,"p95":ms,"mean":ms,"startMs":ms,"ok":N,"loops":F,"perSecond":x}
 * startMs is the time from carbone.set to the end of the first render (the factories start
 * meanwhile); perSecond is the timed renders over their wall time; cpuMs is the CPU time per timed
 * render of this process and its factories (soffice.bin and the python converter) together.
 *
 * Carbone finds LibreOffice at require time: on Linux it looks for `soffice.bin` and a `python3`
 * on the PATH, so run-carbone.ts puts LibreOffice's program folder and Debian's python (the one
 * with the `uno` module) first on it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { treeCpuMs } from '../cases-stack.js';
import { isPdf, summarize } from './common.js';
import { carboneData, carboneTemplate, type FixtureTag } from './carbone-template.js';

/** What the benchmark uses of Carbone 3's API (it ships no types). */
interface Carbone {
  set(options: { factories?: number; startFactory?: boolean; tempPath?: string }): void;
  render(
    template: string,
    data: unknown,
    options: { convertTo: string; lang?: string },
    callback: (err: unknown, result: Buffer | string) => void,
  ): void;
}
interface CarboneConverter {
  exit(callback: () => void): void;
}

function usage(): never {
  process.stderr.write(
    'usage: carbone-loop.js <template.docx> <tags.json> <rounds> <warmup> <factories> <first.pdf>\n',
  );
  process.exit(2);
}

function parse(argv: string[]) {
  const [template, tags, roundsArg, warmupArg, factoriesArg, firstPdf] = argv;
  const rounds = Number(roundsArg);
  const warmup = Number(warmupArg);
  const factories = Number(factoriesArg);
  if (template === undefined || tags === undefined || firstPdf === undefined) usage();
  if (!Number.isInteger(rounds) || rounds < 1) usage();
  if (!Number.isInteger(warmup) || warmup < 1) usage();
  if (!Number.isInteger(factories) || factories < 1) usage();
  return { template: resolve(template), tags: resolve(tags), rounds, warmup, factories, firstPdf };
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  const tags = JSON.parse(readFileSync(args.tags, 'utf8')) as FixtureTag[];
  const work = mkdtempSync(join(tmpdir(), 'carbone-w1-'));
  const templatePath = join(work, 'w1-carbone.docx');
  writeFileSync(templatePath, carboneTemplate(readFileSync(args.template), tags));
  const data = carboneData(tags);

  // The office processes get what docpipe's get (run-raw.ts): jemalloc when installed. Carbone
  // spawns them with this process's environment, and this process is already running.
  if (process.env.RAW_OFFICE_PRELOAD) process.env.LD_PRELOAD = process.env.RAW_OFFICE_PRELOAD;
  const require = createRequire(import.meta.url);
  const carbone = require('carbone') as Carbone;
  const converter = require('carbone/lib/converter') as CarboneConverter;

  const render = () =>
    new Promise<Buffer>((resolvePromise, reject) => {
      carbone.render(templatePath, data, { convertTo: 'pdf', lang: 'da-dk' }, (err, result) => {
        // Carbone calls back with an Error or with a message string.
        if (err) reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
        else if (typeof result === 'string')
          reject(new Error(`Carbone returned a path: ${result}`));
        else resolvePromise(result);
      });
    });

  const started = performance.now();
  carbone.set({ factories: args.factories, startFactory: true, tempPath: work });
  let startMs = 0;
  const times: number[] = [];
  let ok = 0;
  let first: Buffer | undefined;
  let timedFrom = 0;
  let cpuFrom = 0;
  let warming = args.factories;
  const loop = async () => {
    for (let i = 0; i < args.warmup; i++) {
      const pdf = await render();
      if (startMs === 0) startMs = performance.now() - started;
      if (!isPdf(pdf)) process.stderr.write(`warm-up render ${i} gave no PDF\n`);
    }
    // The timed part starts when every loop is warm, so that all of it has `factories` in flight.
    if (--warming === 0) {
      timedFrom = performance.now();
      cpuFrom = treeCpuMs(process.pid);
    }
    while (warming > 0) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < args.rounds; i++) {
      const t0 = performance.now();
      const pdf = await render();
      times.push(performance.now() - t0);
      if (isPdf(pdf)) ok++;
      first ??= pdf;
    }
  };
  let cpuMs = 0;
  try {
    await Promise.all(Array.from({ length: args.factories }, loop));
    cpuMs = (treeCpuMs(process.pid) - cpuFrom) / times.length;
  } finally {
    await new Promise<void>((r) => converter.exit(r));
  }
  const seconds = (performance.now() - timedFrom) / 1000;
  writeFileSync(args.firstPdf, first!);
  // summarize's kind is replaced: RawLoopKind names run-raw.ts's loops, and this is not one.
  const result = {
    ...summarize('libreoffice-convert', times, startMs, ok),
    kind: 'carbone',
    loops: args.factories,
    perSecond: times.length / seconds,
    cpuMs,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return ok === times.length ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`carbone-loop: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
