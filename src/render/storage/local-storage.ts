import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, opendir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
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

/** Storage on the local disk under one root folder; writes go to a temporary file, then rename. */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  async put(key: string, data: Uint8Array, type: string): Promise<StoredObject> {
    const path = this.path(key);
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    if (data.byteLength <= SYNC_WRITE_MAX_BYTES) {
      putSync(path, temporary, data);
      return { key, bytes: data.byteLength, type, modified: new Date() };
    }
    try {
      // The folder usually exists already: made on demand, it costs no call on every write.
      await writeFile(temporary, data).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(dirname(path), { recursive: true });
        await writeFile(temporary, data);
      });
      // rename within one folder is atomic: readers never see half an object.
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    return { key, bytes: data.byteLength, type, modified: new Date() };
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
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

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
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
      if (!entry.isFile() || entry.name.endsWith('.partial') || !key.startsWith(prefix)) continue;
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

/** The same steps as the asynchronous path of `put`, for small objects (SYNC_WRITE_MAX_BYTES). */
function putSync(path: string, temporary: string, data: Uint8Array): void {
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
