/**
 * Runs the Carbone 3 contender (bench/raw/carbone-loop.ts) in a child process, as run-raw.ts runs
 * the raw loops, and returns its JSON line and its first PDF.
 *
 * Its LibreOffice runs in the environment the warm raw loops give theirs (run-raw.ts): jemalloc
 * when installed, and the profile and temporary files in memory (/dev/shm). Carbone looks for
 * `soffice.bin` and `python3` on the PATH when it is loaded, so LibreOffice's program folder and
 * Debian's python (the one with python3-uno's `uno` module; a `python3` earlier on the PATH may
 * lack it) go first on the child's PATH.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allocatorLibrary } from '../../src/render/convert/office-profile.js';
import { projectRoot } from '../../src/base/paths/index.js';

const LIBREOFFICE_PROGRAM = '/usr/lib/libreoffice/program';
const SYSTEM_BIN = '/usr/bin';

export interface CarboneLoopResult {
  kind: 'carbone';
  /** Timed renders (warm-up excluded), all loops together. */
  n: number;
  /** Per-document milliseconds of one carbone.render call (fill and convert). */
  p50: number;
  p95: number;
  mean: number;
  /** From carbone.set to the end of the first render (the factories start meanwhile). */
  startMs: number;
  /** Timed renders whose output started with `%PDF-`. */
  ok: number;
  /** Renders in flight, one per factory. */
  loops: number;
  /** Timed renders over their wall time. */
  perSecond: number;
  /** CPU time per timed render of Carbone's process and its factories together (ms). */
  cpuMs: number;
  /** The first timed render's PDF. */
  firstPdf: Buffer;
}

/**
 * `factories` Carbone factories with as many renders in flight, each `warmup + rounds` renders of
 * W1 (docpipe's template at `template`, filled with the fixture at `tags`). Rejects when the loop
 * printed no result line or ran past its time limit (60 s plus 30 s per render of one loop).
 */
export async function runCarboneLoop(
  template: string,
  tags: string,
  factories: number,
  rounds: number,
  warmup: number,
): Promise<CarboneLoopResult> {
  const root = projectRoot();
  const script = join(root, 'dist', 'bench', 'raw', 'carbone-loop.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run "npm run build" first`);
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'docpipe-carbone-'));
  const firstPdf = join(dir, 'first.pdf');
  const jemalloc = allocatorLibrary('auto');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: dir,
    PATH: [LIBREOFFICE_PROGRAM, SYSTEM_BIN, process.env.PATH ?? ''].join(':'),
  };
  if (jemalloc) env.RAW_OFFICE_PRELOAD = jemalloc;
  const args = [
    script,
    template,
    tags,
    String(rounds),
    String(warmup),
    String(factories),
    firstPdf,
  ];
  try {
    const stdout = await new Promise<string>((resolvePromise, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000 + (rounds + warmup) * 30_000,
        killSignal: 'SIGTERM',
      });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        err = (err + chunk).slice(-4000);
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (signal === null && out.includes('{"kind":"carbone"')) resolvePromise(out);
        else
          reject(
            new Error(
              `Carbone loop ${signal !== null ? `was killed by ${signal}` : `exited with code ${code}`} without a result line` +
                (err.trim() ? `:\n${err.trim()}` : ''),
            ),
          );
      });
    });
    const line = stdout.split('\n').find((l) => l.startsWith('{"kind":"carbone"'))!;
    const r = JSON.parse(line) as Omit<CarboneLoopResult, 'firstPdf'>;
    return { ...r, firstPdf: readFileSync(firstPdf) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
