import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorWords, InputError } from './input-error.js';

/** Writes next to the target and renames, so that a reader never sees half a file. */
export async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw new InputError(`cannot write ${path}: ${errorWords(err)}`);
  }
}
