import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { officePipeSockets } from '../../src/render/convert/index.js';

/** The temporary folder an office process was started with (its TMPDIR), from /proc. */
export function officeTempDirOf(pid: number): string {
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const tmpdir = environ.find((v) => v.startsWith('TMPDIR='))?.slice('TMPDIR='.length);
  if (!tmpdir) throw new Error(`office process ${pid} has no TMPDIR`);
  return tmpdir;
}

/** The folder of an office process: its profile, temporary files and documents in conversion. */
export function officeDirOf(pid: number): string {
  return dirname(officeTempDirOf(pid));
}

/**
 * The sockets in /tmp of the pool's office process whose folder is `officeDir`: the one for its
 * profile (SingleOfficeIPC_...) and its UNO pipe (named after the folder).
 */
export function officeSocketsOf(officeDir: string): string[] {
  return officePipeSockets(`file://${join(officeDir, 'profile')}`, basename(officeDir));
}
