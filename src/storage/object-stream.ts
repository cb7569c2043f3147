import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { LocalStorage } from './local-storage.js';
import type { Storage } from './storage.js';

/** Inclusive byte offsets, as HTTP ranges count them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A stream of a stored object, whole or one byte range, or undefined when it is not there. Local
 * storage streams from disk, so a large PDF never sits in memory; another backend is read whole
 * and sliced until it offers a ranged read of its own.
 */
export async function readObjectStream(
  storage: Storage,
  key: string,
  range?: ByteRange,
): Promise<Readable | undefined> {
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
