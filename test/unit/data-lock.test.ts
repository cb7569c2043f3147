import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  acquireDataLock,
  dataLockFile,
  DataFolderInUseError,
} from '../../src/platform/embedded/index.js';
import { InputError } from '../../src/base/files/index.js';
import { sourceChildArgs, sourceModule } from '../helpers/source-child.js';
import { testDir } from '../helpers/test-dir.js';

/** Another process holding the lock of `dir`, as a running `docpipe start` would. */
async function holder(dir: string): Promise<ChildProcess> {
  const lockModule = sourceModule('src/platform/embedded/data-lock.ts');
  const child = spawn(
    process.execPath,
    [
      ...sourceChildArgs,
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(lockModule)});
       await m.acquireDataLock(${JSON.stringify(dir)});
       console.log('held');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => c.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder ended (${code})`)));
  });
  return child;
}

function deadPid(): number {
  // Pids are not reused at once; one far above pid_max's default is never in use.
  return 4_000_000 - 7;
}

describe('data folder lock of docpipe start', () => {
  it('refuses while a live process holds it, naming it and what to do, and leaves its lock', async () => {
    const dir = testDir('docpipe-lock-');
    const other = await holder(dir);
    const before = readFileSync(dataLockFile(dir), 'utf8');
    const err = await acquireDataLock(dir).catch((e: unknown) => e);
    // Bad usage to the CLI (exit status 2), as every InputError.
    expect(err).toBeInstanceOf(DataFolderInUseError);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ dataDir: dir, holderPid: other.pid });
    const message = (err as Error).message;
    expect(message).toContain(`docpipe start is already running on ${dir} (process ${other.pid},`);
    expect(message).toContain(`kill ${other.pid}`);
    expect(message).toContain('DOCPIPE_DATA_DIR');
    expect(readFileSync(dataLockFile(dir), 'utf8')).toBe(before);
  });

  it('takes over a lock whose holder is dead, and removes its own on release', async () => {
    const dir = testDir('docpipe-lock-');
    writeFileSync(
      dataLockFile(dir),
      JSON.stringify({ pid: deadPid(), startTicks: 1, since: '2025-01-01T00:00:00.000Z' }),
    );
    const lock = await acquireDataLock(dir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('takes over a lock whose pid now belongs to another process (started at another time)', async () => {
    const dir = testDir('docpipe-lock-');
    const other = await holder(testDir('docpipe-lock-other-'));
    // A live pid, but not the process that wrote the lock: its start time differs.
    writeFileSync(
      dataLockFile(dir),
      JSON.stringify({ pid: other.pid, startTicks: 1, since: '2025-01-01T00:00:00.000Z' }),
    );
    const lock = await acquireDataLock(dir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('takes over a lock that is not one (junk from a broken disk)', async () => {
    const dir = testDir('docpipe-lock-');
    writeFileSync(dataLockFile(dir), 'not json');
    const lock = await acquireDataLock(dir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('leaves a lock that another process took meanwhile when it releases', async () => {
    const dir = testDir('docpipe-lock-');
    const lock = await acquireDataLock(dir);
    const theirs = JSON.stringify({ pid: deadPid(), since: 'later' });
    writeFileSync(lock.file, theirs);
    await lock.release();
    expect(readFileSync(lock.file, 'utf8')).toBe(theirs);
  });
});
