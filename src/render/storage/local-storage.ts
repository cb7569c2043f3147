import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { opendir, readFile, rm, rmdir, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  PARTIAL_SUFFIX,
  copyFileAtomically,
  replaceFile,
  replaceFileSync,
} from '../../base/files/index.js';
import { typeOfKey } from './content-types.js';
import { checkKey, type Storage, type StoredObject } from './storage.js';

/**
 * Objects up to this size are written with synchronous calls. Each asynchronous file call is a
 * round trip through libuv's thread pool (a wake-up of a pool thread and one back), and writing
 * an object takes four (open, write, close, rename), so synchronous writes cost a small object
 * several times less CPU (measured in docs/decisions.md, "Synchronous writes for small objects").
 * Below this size the event loop waits only briefly;
 * larger objects go through the thread pool as before, so that a big PDF never stalls it.
 */
export const SYNC_WRITE_MAX_BYTES = 1024 * 1024;

/**
 * The file open at `fd`, `size` bytes by its stat: an object is replaced by a rename, never
 * written in place, so the open file keeps the size it had. Not from Buffer's shared pool (as
 * readFile's are not): a caller may hand the bytes on to a thread.
 */
function readWhole(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(size);
  let filled = 0;
  while (filled < size) {
    const n = readSync(fd, buffer, filled, size - filled, null);
    if (n === 0) break;
    filled += n;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

/** Storage on the local disk under one root folder; writes go to a temporary file, then rename. */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  async put(key: string, data: Uint8Array, type: string): Promise<StoredObject> {
    // Written beside and renamed: readers never see half an object.
    if (data.byteLength <= SYNC_WRITE_MAX_BYTES) replaceFileSync(this.path(key), data);
    else await replaceFile(this.path(key), data);
    return { key, bytes: data.byteLength, type, modified: new Date() };
  }

  async get(key: string): Promise<Buffer | undefined> {
    // Read as small objects are written (SYNC_WRITE_MAX_BYTES): a miss, the render cache's usual
    // answer, is one open that fails, and a hit on a render or a job's input is an open, a stat,
    // a read and a close, each a round trip through libuv's thread pool asynchronously. Larger
    // objects are read through the pool, as before, so that a big PDF never stalls the loop.
    let fd: number;
    try {
      fd = openSync(this.path(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let size: number;
    try {
      size = fstatSync(fd).size;
      if (size <= SYNC_WRITE_MAX_BYTES) return readWhole(fd, size);
    } finally {
      closeSync(fd);
    }
    try {
      return await readFile(this.path(key));
    } catch (err) {
      // Replaced or removed since the open: as if it had not been there.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const s = await stat(this.path(key));
      return { key, bytes: s.size, type: typeOfKey(key), modified: s.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  copy(from: string, to: string): Promise<boolean> {
    return copyFileAtomically(this.path(from), this.path(to));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
    await this.pruneFolders(key);
  }

  /**
   * Removes the folders above a deleted object that it left empty, up to the root (kept): a key
   * has no folders but on this disk, and a case refused after its first copy, or deleted, leaves
   * none behind. rmdir refuses a folder that is not empty, and a write under way has its
   * temporary file there (replaceFile makes the folder again when it vanished between).
   */
  private async pruneFolders(key: string): Promise<void> {
    const segments = checkKey(key).split('/');
    for (let n = segments.length - 1; n > 0; n--) {
      try {
        await rmdir(join(this.root, ...segments.slice(0, n)));
      } catch {
        return;
      }
    }
  }

  async touch(key: string): Promise<void> {
    const now = new Date();
    await utimes(this.path(key), now, now).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    // Walk only the folder the prefix names: listing `renders/` never reads `companies/`.
    const slash = prefix.lastIndexOf('/');
    const folder = slash < 0 ? '' : prefix.slice(0, slash);
    if (folder !== '') checkKey(folder);
    yield* this.walk(folder, prefix);
  }

  private async *walk(folder: string, prefix: string): AsyncIterable<StoredObject> {
    let dir;
    try {
      dir = await opendir(folder === '' ? this.root : join(this.root, folder));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for await (const entry of dir) {
      const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(key, prefix);
        continue;
      }
      // Temporary files of writes under way are no objects yet.
      if (!entry.isFile() || entry.name.endsWith(PARTIAL_SUFFIX) || !key.startsWith(prefix))
        continue;
      const object = await this.stat(key).catch(() => undefined);
      if (object) yield object;
    }
  }

  /** The absolute path of a stored object, for people and tools on this machine. */
  pathOf(key: string): string {
    return resolve(this.root, checkKey(key));
  }

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }
}
