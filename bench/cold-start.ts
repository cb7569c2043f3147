/**
 * Issue 37's cold start: the real `docpipe start` (dist/src/surfaces/cli/main.js), with its own
 * embedded Redis and PostgreSQL in a private data folder, a private port and 2 office processes,
 * timed from the spawn to (a) the HTTP API answering (`/healthz` 200, polled every 10 ms), (b) the
 * first finished W1 conversion (`POST /api/v2/document/convert` answered 200, sent the moment
 * (a) holds) and (c) every office process warm (the office pool's "office process ready" line
 * for each, read from the log's own timestamps; the start runs at debug level for that line).
 * A first start on the fresh folder (which also creates the PostgreSQL cluster) is timed apart,
 * and used to make the company, its user and its API key with the CLI (`docpipe companies
 * create`, `users add`, `keys create`, on the running start's database); the measured rounds are
 * starts of a stopped docpipe on that folder, as an operator's restart is.
 *
 * Rounds: BENCH_COLD_START_ROUNDS (3; quick 1).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure, Note, Series } from './report/results.js';
import { convertBody, loadW1, type W1 } from './cases-fixtures.js';

const OFFICE_PROCESSES = 2;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 10;
/** USER_HZ: 100 on Linux for every architecture Node runs on. */
const CLOCK_TICKS = 100;

interface LogLine {
  msg: string;
  time?: number;
  level?: number;
  /** CPU time (ms) docpipe's Node process had used when this benchmark read the line. */
  cpu?: number;
}

export interface ColdStartRound {
  /** ms from the spawn. */
  api: number;
  firstConversion: number;
  officeWarm: number;
  /** `docpipe started` logged. */
  started: number;
  /** CPU (ms) of docpipe's Node process when the API first answered. */
  apiCpu: number;
  /** ms from the spawn of each log line up to `docpipe started`, as the start's phases. */
  phases: { at: number; cpu?: number; msg: string }[];
  /** From SIGINT to the process's exit. */
  stopMs: number;
}

/** A `docpipe start` of this benchmark, its log parsed as it comes. */
class Start {
  readonly lines: LogLine[] = [];
  private partial = '';
  private tail = '';
  readonly exited: Promise<number | null>;
  /** Date.now() at the spawn: pino's `time` is on that clock. */
  readonly spawnedAt: number;
  readonly spawnedPerf: number;
  private readonly child: ChildProcess;

  constructor(cli: string, root: string, env: NodeJS.ProcessEnv) {
    this.spawnedAt = Date.now();
    this.spawnedPerf = performance.now();
    this.child = spawn(process.execPath, [cli, 'start'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const take = (c: Buffer) => {
      this.tail = (this.tail + c.toString()).slice(-20_000);
      const parts = (this.partial + c.toString()).split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts)
        if (line.startsWith('{'))
          try {
            this.lines.push({ ...(JSON.parse(line) as LogLine), cpu: this.cpuMs() });
          } catch {
            // Not pino's: in the tail only.
          }
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * CPU time (user and system, ms) of docpipe's Node process alone: what a start costs apart
   * from how busy the machine is, which the wall times are not (its Redis, PostgreSQL and
   * office processes are processes of their own and not counted).
   */
  cpuMs(): number | undefined {
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime: fields 14 and 15 of the line, 12 and 13 after the command.
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }

  get log(): string {
    return this.tail;
  }

  /** ms from the spawn to the first line whose msg starts with `prefix`, by its timestamp. */
  at(prefix: string, nth = 1): number | undefined {
    const found = this.lines.filter((l) => l.msg.startsWith(prefix))[nth - 1];
    return found?.time === undefined ? undefined : found.time - this.spawnedAt;
  }

  async waitFor(prefix: string): Promise<void> {
    const until = Date.now() + START_TIMEOUT_MS;
    while (!this.lines.some((l) => l.msg.startsWith(prefix))) {
      if (!this.running) throw new Error(`docpipe start ended before "${prefix}":\n${this.tail}`);
      if (Date.now() > until) throw new Error(`no "${prefix}" within ${START_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Ctrl-C, as an operator stops it; SIGKILL if it hangs. ms until it ended. */
  async stop(): Promise<number> {
    if (!this.running) return 0;
    const from = performance.now();
    this.child.kill('SIGINT');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
    return performance.now() - from;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** ms from the spawn until `/healthz` answers 200. */
async function untilApi(start: Start, url: string): Promise<number> {
  const until = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    const ok = await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return performance.now() - start.spawnedPerf;
    if (!start.running)
      throw new Error(`docpipe start ended before its API answered:\n${start.log}`);
    if (performance.now() > until)
      throw new Error(`the API did not answer within ${START_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** ms from the spawn until a W1 convert is answered 200. */
async function firstConversion(start: Start, url: string, key: string, w1: W1, n: number) {
  const res = await fetch(`${url}/api/v2/document/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: convertBody(w1, `cold-start-${n}-${Date.now()}`),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`the first convert: ${res.status} ${body.slice(0, 500)}`);
  return performance.now() - start.spawnedPerf;
}

/** The start's log lines up to `docpipe started`, each at its ms from the spawn. */
function phases(start: Start): { at: number; cpu?: number; msg: string }[] {
  const out: { at: number; cpu?: number; msg: string }[] = [];
  for (const l of start.lines) {
    if (l.time === undefined) continue;
    out.push({
      at: l.time - start.spawnedAt,
      ...(l.cpu !== undefined ? { cpu: l.cpu } : {}),
      msg: l.msg.slice(0, 60),
    });
    if (l.msg.startsWith('docpipe started')) break;
  }
  return out;
}

function cli(root: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync(
    process.execPath,
    [join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js'), ...args],
    {
      cwd: root,
      env,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`docpipe ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x);

export async function coldStart(
  root: string,
  quick: boolean,
): Promise<{ figures: Figure[]; series: Series[]; notes: Note[] }> {
  const rounds = Number(process.env.BENCH_COLD_START_ROUNDS ?? (quick ? 1 : 3));
  const log = (line: string) => process.stderr.write(`[cold start] ${line}\n`);
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  const w1 = loadW1(root);
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-cold-'));
  // The embedded PostgreSQL runs as its own user when docpipe runs as root: it must pass through.
  chmodSync(work, 0o711);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DOCPIPE_DATA_DIR: join(work, 'data'),
    DOCPIPE_HTTP_HOST: '127.0.0.1',
    DOCPIPE_HTTP_PORT: String(port),
    DOCPIPE_PUBLIC_URL: url,
    DOCPIPE_OFFICE_PROCESSES: String(OFFICE_PROCESSES),
    DOCPIPE_SIGNING_SECRET: 'a-benchmark-signing-secret-32chars',
    DOCPIPE_LOG_FORMAT: 'json',
    // The office pool says "office process ready" at debug level only.
    DOCPIPE_LOG_LEVEL: 'debug',
  };
  // Its own Redis and PostgreSQL, as a first `docpipe start` on a machine runs.
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  const main = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
  let running: Start | undefined;
  try {
    // The first start on the fresh folder: the cluster is created; the key is made on it.
    running = new Start(main, root, env);
    const freshApi = await untilApi(running, url);
    await running.waitFor('docpipe started');
    const freshStarted = running.at('docpipe started')!;
    cli(root, env, 'companies', 'create', 'cold', '--name', 'Cold Start');
    cli(
      root,
      env,
      'users',
      'add',
      '--company',
      'cold',
      '--email',
      'owner@cold.example',
      '--name',
      'Owner',
      '--no-invite',
    );
    const key = cli(
      root,
      env,
      'keys',
      'create',
      '--company',
      'cold',
      '--user',
      'owner@cold.example',
      '--name',
      'cold start',
    );
    const freshPhases = phases(running);
    await running.stop();
    running = undefined;
    log(`fresh folder: API at ${round(freshApi)} ms, started at ${round(freshStarted)} ms`);

    const measured: ColdStartRound[] = [];
    for (let r = 0; r < rounds; r++) {
      // The file cache is as warm as after any restart; the processes are all new.
      const start = (running = new Start(main, root, env));
      const api = await untilApi(start, url);
      const apiCpu = start.cpuMs() ?? NaN;
      const conversion = await firstConversion(start, url, key, w1, r);
      await start.waitFor('docpipe started');
      const warm = start.at('office process ready', OFFICE_PROCESSES);
      if (warm === undefined)
        throw new Error(
          `fewer than ${OFFICE_PROCESSES} "office process ready" lines:\n${start.log}`,
        );
      const round_: ColdStartRound = {
        api,
        firstConversion: conversion,
        officeWarm: warm,
        started: start.at('docpipe started')!,
        apiCpu,
        phases: phases(start),
        stopMs: 0,
      };
      round_.stopMs = await start.stop();
      running = undefined;
      measured.push(round_);
      log(
        `round ${r + 1}: API ${round(api)} ms, first conversion ${round(conversion)} ms, office warm ${round(warm)} ms, stop ${round(round_.stopMs)} ms`,
      );
    }
    const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
    const figure = (id: string, name: string, pick: (r: ColdStartRound) => number): Figure => {
      const runs = measured.map((r) => round(pick(r)));
      return { id, group: 'cold-start', name, unit: 'ms', value: median(runs), spread: { runs } };
    };
    const figures: Figure[] = [
      figure(
        'cold-start.api',
        '`docpipe start` to the HTTP API answering (/healthz 200)',
        (r) => r.api,
      ),
      figure(
        'cold-start.first-conversion',
        '`docpipe start` to the first finished W1 conversion (POST /api/v2/document/convert, sent when the API answers)',
        (r) => r.firstConversion,
      ),
      figure(
        'cold-start.office-warm',
        `\`docpipe start\` to every office process warm (${OFFICE_PROCESSES}, "office process ready")`,
        (r) => r.officeWarm,
      ),
      figure(
        'cold-start.api-cpu',
        "CPU of docpipe's Node process until the HTTP API answered (its Redis, PostgreSQL and office processes apart)",
        (r) => r.apiCpu,
      ),
      figure(
        'cold-start.stop',
        '`docpipe start` stopped with Ctrl-C, idle, to its exit',
        (r) => r.stopMs,
      ),
      {
        id: 'cold-start.fresh-folder.api',
        group: 'cold-start',
        name: 'the first `docpipe start` on a fresh data folder (its PostgreSQL cluster created) to the HTTP API answering',
        unit: 'ms',
        value: round(freshApi),
      },
    ];
    const mid = measured[Math.floor(measured.length / 2)]!;
    const phaseText = (ps: { at: number; cpu?: number; msg: string }[]) =>
      ps
        .map(
          (p) => `${round(p.at)} ms${p.cpu !== undefined ? ` (CPU ${round(p.cpu)})` : ''} ${p.msg}`,
        )
        .join('; ');
    const notes: Note[] = [
      {
        group: 'cold-start',
        name: 'cold start phases',
        text:
          `${rounds} starts of a stopped docpipe on its data folder (2 office processes, its own Redis and PostgreSQL), ms from the spawn by the log's timestamps, with the CPU ms docpipe's Node process had used when the line was read. ` +
          `A middle round: ${phaseText(mid.phases)}. ` +
          `The first start on a fresh folder: ${phaseText(freshPhases)}. ` +
          `Load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')} (2 cores).`,
      },
    ];
    for (const f of figures) log(`${f.id} = ${f.value} ms`);
    log(notes[0]!.text);
    return { figures, series: [], notes };
  } finally {
    await running?.stop().catch(() => undefined);
    // A start that was killed may leave its Redis and PostgreSQL: ended by their pid files.
    leftovers(join(work, 'data'));
    rmSync(work, { recursive: true, force: true });
  }
}

/** The embedded Redis and PostgreSQL of a start that did not stop them (killed), if any. */
function leftovers(dataDir: string): void {
  const kill = (pidFile: string, name: string, signal: NodeJS.Signals) => {
    try {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]!.trim());
      if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name))
        process.kill(pid, signal);
    } catch {
      // None left.
    }
  };
  kill(join(dataDir, 'redis', 'redis.pid'), 'redis-server', 'SIGTERM');
  kill(join(dataDir, 'postgres', 'postmaster.pid'), 'postgres', 'SIGQUIT');
}
