import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ByteRange } from './byte-range.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export type { ByteRange } from './byte-range.js';

/**
 * A stream of a stored object, whole or one byte range, or undefined when it is not there. Local
 * storage streams from disk and S3 storage with a ranged GET, so a large PDF never sits in
 * memory; another backend is read whole and sliced.
 */
export async function readObjectStream(
  storage: Storage,
  key: string,
  range?: ByteRange,
): Promise<Readable | undefined> {
  if (storage instanceof S3Storage) return storage.readStream(key, range);
  if (storage instanceof LocalStorage) {
    if (!(await storage.stat(key))) return undefined;
    return createReadStream(
      storage.pathOf(key),
      range ? { start: range.start, end: range.end } : {},
    );
  }
  const bytes = await storage.get(key);
  if (!bytes) return undefined;
  return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
}
