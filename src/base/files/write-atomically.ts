import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorWords, InputError } from './input-error.js';

/**
 * How a file being written ends: a reader that walks a folder skips such files, which are half
 * written (or left by a process killed while writing).
 */
export const PARTIAL_SUFFIX = '.partial';

/** A name beside `path`, one of its own per write: two writes of one path never share it. */
function temporaryBeside(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
}

/**
 * Replaces `path` whole: writes beside it, then renames, which is atomic within one folder, so
 * that a reader sees the old file or the new one, never half of one. The folder is made when the
 * first write finds it missing (it usually exists: no call is spent on it). A failure is the file
 * system's own error, the temporary file removed.
 */
export async function replaceFile(path: string, data: Uint8Array): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    await writeFile(temporary, data).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, data);
    });
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/**
 * replaceFile with synchronous calls: for small files on a hot path, where each asynchronous call
 * costs a round trip through libuv's thread pool (docs/decisions.md, "Synchronous writes for
 * small objects").
 */
export function replaceFileSync(path: string, data: Uint8Array): void {
  const temporary = temporaryBeside(path);
  try {
    try {
      writeFileSync(temporary, data);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(temporary, data);
    }
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}

/** replaceFile for a file the caller named (an output path): a failure is an InputError. */
export async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  try {
    await replaceFile(path, data);
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${errorWords(err)}`);
  }
}
