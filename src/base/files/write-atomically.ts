import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { access, chmod, copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorWords, InputError } from './input-error.js';

/**
 * How a file being written ends: a reader that walks a folder skips such files, which are half
 * written (or left by a process killed while writing).
 */
export const PARTIAL_SUFFIX = '.partial';

/**
 * The modes of what docpipe writes into its data folder: its owner's alone. Given explicitly, so
 * that no umask widens them (a umask only takes bits away).
 */
export const PRIVATE_MODES: FileModes = Object.freeze({ file: 0o600, dir: 0o700 });

/** What a file of one's own on the command line gets: what the umask lets through. */
export const ORDINARY_MODES: FileModes = Object.freeze({ file: 0o666, dir: 0o777 });

/** The mode of a new file and of the folders made for it. */
export interface FileModes {
  readonly file: number;
  readonly dir: number;
}

/** A name beside `path`, one of its own per write: two writes of one path never share it. */
function temporaryBeside(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
}

/**
 * How often a write makes its folder again: once when it is missing, and again only when a
 * concurrent prune of empty folders removed it in between.
 */
const FOLDER_RETRIES = 3;

/**
 * Replaces `path` whole: writes beside it, then renames, which is atomic within one folder, so
 * that a reader sees the old file or the new one, never half of one. The folder is made when the
 * first write finds it missing (it usually exists: no call is spent on it). The file and the
 * folders made get `modes`, private by default: what docpipe keeps is its own. A failure is the
 * file system's own error, the temporary file removed.
 */
export async function replaceFile(
  path: string,
  data: Uint8Array,
  modes: FileModes = PRIVATE_MODES,
): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await writeFile(temporary, data, { mode: modes.file });
        break;
      } catch (err) {
        // Missing, or removed again between the mkdir and the write by a delete that pruned
        // its empty folder (LocalStorage.delete): made again, a few times.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > FOLDER_RETRIES) throw err;
        await mkdir(dirname(path), { recursive: true, mode: modes.dir });
      }
    }
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
export function replaceFileSync(
  path: string,
  data: Uint8Array,
  modes: FileModes = PRIVATE_MODES,
): void {
  const temporary = temporaryBeside(path);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        writeFileSync(temporary, data, { mode: modes.file });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > FOLDER_RETRIES) throw err;
        mkdirSync(dirname(path), { recursive: true, mode: modes.dir });
      }
    }
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}

/**
 * replaceFile for a file the caller named (an output path), with the modes the umask gives any
 * file of theirs: a failure is an InputError.
 */
export async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  try {
    await replaceFile(path, data, ORDINARY_MODES);
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${errorWords(err)}`);
  }
}

/**
 * Replaces `to` whole with a copy of `from`, as replaceFile does (a copy beside it, then a
 * rename), without reading the bytes into memory: the kernel copies them, or shares them on a
 * file system that clones (COPYFILE_FICLONE falls back to a copy elsewhere). False when `from`
 * is missing. The copy has `modes`.
 */
export async function copyFileAtomically(
  from: string,
  to: string,
  modes: FileModes = PRIVATE_MODES,
): Promise<boolean> {
  const temporary = temporaryBeside(to);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await copyFile(from, temporary, constants.COPYFILE_FICLONE);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > FOLDER_RETRIES) throw err;
        // The source gone, or the target's folder missing (made, as a write makes it).
        if (!(await exists(from))) return false;
        await mkdir(dirname(to), { recursive: true, mode: modes.dir });
      }
    }
    await chmod(temporary, modes.file);
    await rename(temporary, to);
    return true;
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
