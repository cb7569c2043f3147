import { spawnSync } from 'node:child_process';
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
  const run = (args: string[]): number => {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - started;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${String(r.stderr)}`);
    return ms;
  };
  for (const { args } of commands) run(args); // warm the file cache
  for (let i = 0; i < rounds; i++) commands.forEach(({ args }, c) => times[c]!.push(run(args)));
  const [baseline, ...measured] = times.map(stats);
  return measured.map((docpipe, i) => {
    const overBaselineMs = docpipe.p50 - baseline!.p50;
    return {
      name: `${commands[i + 1]!.name} (process start to exit)`,
      docpipe,
      baseline: { name: 'node -e 0', stats: baseline! },
      overBaselineMs,
      target: `p50 at most ${CLI_STARTUP_BUDGET_MS} ms over node -e 0 (measured: +${overBaselineMs.toFixed(0)} ms)`,
      meets: overBaselineMs <= CLI_STARTUP_BUDGET_MS,
    };
  });
}

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
