import { readFile } from 'node:fs/promises';

/**
 * An embedded server whose owner was killed keeps running (it has its own session); two servers
 * on one data folder would corrupt it. The one named on the first line of `pidFile` (redis-server
 * and postgres both write their pid there), if it is still a `program`, is stopped first (with
 * `stopSignal`, SIGKILL after `graceMs`), and waited for, so that its port or socket and its
 * files are free again.
 */
export async function stopStale(
  pidFile: string,
  program: string,
  graceMs: number,
  stopSignal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).split('\n', 1)[0]!.trim());
  } catch {
    return;
  }
  if (!Number.isSafeInteger(pid) || pid <= 1) return;
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes(program)) return;
  } catch {
    return;
  }
  signal(pid, stopSignal);
  if (await gone(pid, graceMs)) return;
  signal(pid, 'SIGKILL');
  await gone(pid, graceMs);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!(await running(pid))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Alive and not a zombie: where nothing reaps orphans (pid 1 in a container), a dead one lingers. */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z /s.test(stat);
}
