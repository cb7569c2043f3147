import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the integration workers' PostgreSQL servers live (test/helpers/postgres.ts). */
    postgresRoot: string;
  }
}

/**
 * The integration project's global set-up: a folder for the PostgreSQL servers of its workers
 * (one per worker, started by the first file that asks, test/helpers/postgres.ts), and, when the
 * run ends, every one of them stopped and the folder removed. A file's fork ends before the run
 * does, so the servers outlive their starters on purpose, and only this can stop them.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'docpipe-pg-'));
  // The servers run as the postgres user when the tests run as root: let it through (not list).
  chmodSync(root, 0o711);
  project.provide('postgresRoot', root);
  return async () => {
    const pids = readdirSync(root).flatMap((worker) => {
      try {
        const text = readFileSync(join(root, worker, 'postgres', 'postmaster.pid'), 'utf8');
        return [Number(text.split('\n', 1)[0])];
      } catch {
        return [];
      }
    });
    for (const pid of pids) signal(pid, 'SIGINT');
    const until = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
