/**
 * Runs one raw warm-loop baseline (bench/raw/*-loop) in a child process and returns its
 * JSON line. Each loop owns its office for the whole run (LibreOfficeKit allows one per
 * process), so they never share the benchmark's process.
 *
 *   uno                  /usr/bin/python3 bench/raw/uno-loop.py      (needs python3-uno)
 *   uno-frame            the same, every document loaded into one reused frame, as docpipe does
 *   lok                  node dist/bench/raw/lok-loop.js              (koffi + libmergedlo.so)
 *   libreoffice-convert  node dist/bench/raw/libreoffice-convert-loop.js
 *
 * The warm loops (all but libreoffice-convert) run LibreOffice in the environment docpipe gives
 * its office processes: jemalloc when installed, and the profile and temporary files in memory
 * (/dev/shm). LibreOffice writes and fsyncs temporary files on every conversion; in the system
 * /tmp, on disk, that alone made the raw loops a third slower. What the benchmark compares is what
 * docpipe adds to LibreOffice, not where LibreOffice keeps its files.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { allocatorLibrary } from '../../src/render/convert/office-profile.js';
import { projectRoot } from '../../src/base/paths/index.js';
import type { RawLoopKind, RawLoopResult } from './common.js';

export type { RawLoopKind, RawLoopResult } from './common.js';

/** Debian's python: the `python3` on PATH may be one without the `uno` module. */
const SYSTEM_PYTHON = '/usr/bin/python3';

function command(
  kind: RawLoopKind,
  root: string,
): { file: string; args: string[]; after?: string[] } {
  const script = (name: string): string => {
    const file = join(root, 'dist', 'bench', 'raw', name);
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
    return file;
  };
  switch (kind) {
    case 'uno':
      return { file: SYSTEM_PYTHON, args: [join(root, 'bench', 'raw', 'uno-loop.py')] };
    case 'uno-frame':
      return {
        file: SYSTEM_PYTHON,
        args: [join(root, 'bench', 'raw', 'uno-loop.py')],
        after: ['--reuse-frame'],
      };
    case 'lok':
      return { file: process.execPath, args: [script('lok-loop.js')] };
    case 'libreoffice-convert':
      return { file: process.execPath, args: [script('libreoffice-convert-loop.js')] };
    default:
      throw new Error(`unknown raw loop kind: ${String(kind)}`);
  }
}

function parseResult(kind: RawLoopKind, stdout: string): RawLoopResult | undefined {
  const lines = stdout.split('\n').filter((l) => l.trim().startsWith('{'));
  const last = lines[lines.length - 1];
  if (last === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const numbers = ['n', 'p50', 'p95', 'mean', 'startMs', 'ok'] as const;
  if (r.kind !== kind || !numbers.every((k) => typeof r[k] === 'number')) return undefined;
  return {
    kind,
    n: r.n as number,
    p50: r.p50 as number,
    p95: r.p95 as number,
    mean: r.mean as number,
    startMs: r.startMs as number,
    ok: r.ok as number,
  };
}

/**
 * Converts `docx` to PDF `warmup + rounds` times with the given raw baseline and returns the
 * statistics over the last `rounds` (milliseconds per document). Resolves also when some
 * outputs were not valid PDFs (`ok < n`); rejects when the loop printed no result line
 * or ran longer than its time limit (60 s plus 30 s per conversion).
 */
export async function runRawLoop(
  kind: RawLoopKind,
  docx: string,
  rounds: number,
  warmup: number,
): Promise<RawLoopResult> {
  const root = projectRoot();
  const { file, args, after = [] } = command(kind, root);
  const timeoutMs = 60_000 + (rounds + warmup) * 30_000;
  return new Promise<RawLoopResult>((resolvePromise, reject) => {
    const env = officeEnvironmentFor(kind);
    const child = spawn(file, [...args, resolve(docx), String(rounds), String(warmup), ...after], {
      cwd: root,
      env: env.vars,
      stdio: ['ignore', 'pipe', 'pipe'],
      // SIGTERM lets uno-loop.py stop its soffice and remove its temp dirs.
      timeout: timeoutMs,
      killSignal: 'SIGTERM',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on('error', (err) => {
      env.cleanup();
      reject(err);
    });
    child.on('close', (code, signal) => {
      env.cleanup();
      const result = parseResult(kind, stdout);
      if (result && signal === null) {
        resolvePromise(result);
        return;
      }
      const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(
        new Error(
          `raw loop "${kind}" ${how} without a result line` +
            (stderr.trim() ? `:\n${stderr.trim()}` : ''),
        ),
      );
    });
  });
}

/** What a warm loop's LibreOffice runs with, as docpipe's office processes do (see the top). */
function officeEnvironmentFor(kind: RawLoopKind): { vars: NodeJS.ProcessEnv; cleanup(): void } {
  if (kind === 'libreoffice-convert') return { vars: process.env, cleanup: () => undefined };
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, `docpipe-raw-${kind}-`));
  const jemalloc = allocatorLibrary('auto');
  const vars: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
  if (jemalloc) {
    // uno-loop.py preloads it into soffice alone; LibreOfficeKit runs inside the loop's process.
    if (kind === 'lok') vars.LD_PRELOAD = jemalloc;
    else vars.RAW_OFFICE_PRELOAD = jemalloc;
  }
  return { vars, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
