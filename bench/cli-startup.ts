import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Stats } from './stats.js';

/** How much longer than `node -e 0` a CLI command may take, wall time (issue 20). */
export const CLI_STARTUP_BUDGET_MS = 300;

export interface CliStartupRow {
  name: string;
  docpipe: Stats;
  baseline: { name: string; stats: Stats };
  /** p50 of the command less p50 of `node -e 0`, measured in the same run. */
  overBaselineMs: number;
  /**
   * The same for CPU time (user and system, of the process and what it waits for; Linux only):
   * what the wall time would be on an idle machine, since start-up runs on one thread.
   */
  cpuOverBaselineMs?: number;
  target: string;
  meets: boolean;
}

/**
 * The CLI's start-up as a template author meets it: `docpipe --help` and `docpipe sniff` of the
 * sample lease, each a new process of this Node, against `node -e 0` (Node's own start) in the same
 * run. The three run in turn, round after round, so that a busy moment of the machine costs each
 * alike. Wall time of the whole process, from spawn to exit.
 */
export function cliStartup(root: string, rounds: number): CliStartupRow[] {
  const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
  const commands: { name: string; args: string[] }[] = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'docpipe --help', args: [cli, '--help'] },
    {
      name: 'docpipe sniff templates/lease/template.docx',
      args: [cli, 'sniff', 'templates/lease/template.docx'],
    },
  ];
  const times = commands.map(() => [] as number[]);
  const cpu = commands.map(() => [] as number[]);
  const run = (args: string[]): { ms: number; cpuMs: number | undefined } => {
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - started;
    const cpuAfter = childrenCpuMs();
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${String(r.stderr)}`);
    return { ms, cpuMs: cpuBefore === undefined ? undefined : cpuAfter! - cpuBefore };
  };
  for (const { args } of commands) run(args); // warm the file cache
  for (let i = 0; i < rounds; i++)
    commands.forEach(({ args }, c) => {
      const { ms, cpuMs } = run(args);
      times[c]!.push(ms);
      if (cpuMs !== undefined) cpu[c]!.push(cpuMs);
    });
  const [baseline, ...measured] = times.map(stats);
  const cpuP50 = cpu.map((list) => (list.length > 0 ? stats(list).p50 : undefined));
  return measured.map((docpipe, i) => {
    const overBaselineMs = docpipe.p50 - baseline!.p50;
    const cpuOver =
      cpuP50[0] !== undefined && cpuP50[i + 1] !== undefined
        ? cpuP50[i + 1]! - cpuP50[0]
        : undefined;
    return {
      name: `${commands[i + 1]!.name} (process start to exit)`,
      docpipe,
      baseline: { name: 'node -e 0', stats: baseline! },
      overBaselineMs,
      ...(cpuOver !== undefined ? { cpuOverBaselineMs: cpuOver } : {}),
      target: `p50 at most ${CLI_STARTUP_BUDGET_MS} ms over node -e 0 (measured: +${overBaselineMs.toFixed(0)} ms${cpuOver !== undefined ? `; CPU +${cpuOver.toFixed(0)} ms` : ''})`,
      meets: overBaselineMs <= CLI_STARTUP_BUDGET_MS,
    };
  });
}

/**
 * CPU time of this process's children that it has waited for (utime and stime of those
 * children, /proc/self/stat fields 16 and 17), in ms; undefined off Linux.
 */
function childrenCpuMs(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of the whole line are 14 and 15 here (the line's first two are cut).
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** sysconf(_SC_CLK_TCK): 100 on every Linux docpipe runs on. */
const CLOCK_TICKS_PER_S = 100;

function stats(times: number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}
