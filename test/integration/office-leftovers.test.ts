import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { officeDirOf, officeSocketsOf } from '../helpers/office-dir.js';
import { waitUntil } from '../helpers/wait.js';

const lease = readFileSync(join(projectRoot(), 'templates/lease/template.docx'));

// Other tests may run LibreOffice at the same time: only the sockets of this pool's own office
// processes are looked at, named from their profiles and pipes.
describe('office processes leave no sockets in /tmp', () => {
  it('after a start, a recycle, a crash and a close, only live office processes have sockets', async () => {
    const pool = await OfficePool.start({ processes: 1, maxConversionsPerProcess: 2 });
    /** Every office process the pool ran, by pid, with its sockets. */
    const seen = new Map<number, string[]>();
    const track = () => {
      for (const pid of pool.pids())
        if (!seen.has(pid)) seen.set(pid, officeSocketsOf(officeDirOf(pid)));
    };
    const present = (pid: number) => seen.get(pid)!.map((socket) => existsSync(socket));
    const replaced = async (old: number, what: string) => {
      await waitUntil(
        () => pool.stats().ready === 1 && !pool.pids().includes(old),
        30_000,
        `${what}: a new office process`,
      );
      track();
      // The old one is disposed of in the background.
      await waitUntil(() => present(old).every((p) => !p), 5000, `${what}: sockets removed`);
      expect(present(pool.pids()[0]!)).toEqual([true, true]);
    };
    try {
      track();
      const first = pool.pids()[0]!;
      // Named right: both exist while the office runs (the profile's and the UNO pipe's).
      expect(seen.get(first)).toHaveLength(2);
      expect(present(first)).toEqual([true, true]);

      for (let i = 0; i < 2; i++) await pool.convert({ docx: lease, field: 'documents[0]' });
      await replaced(first, 'recycle after 2 conversions');
      expect(pool.stats().restarts).toBe(1);

      const victim = pool.pids()[0]!;
      process.kill(victim, 'SIGKILL');
      await replaced(victim, 'crash');
      expect(pool.stats().restarts).toBe(2);
      expect(seen.size).toBe(3);
    } finally {
      await pool.close();
    }
    expect([...seen.values()].flat().filter((socket) => existsSync(socket))).toEqual([]);
    expect(seen.size).toBe(3);
  });
});
