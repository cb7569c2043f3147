import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

/**
 * Where a stored object is, for a person to find it: a path on this machine for local storage,
 * `s3://<bucket>/<prefix><key>` for S3; the bare key for any other store.
 */
export function objectLocation(storage: Storage, key: string): string {
  if (storage instanceof LocalStorage) return storage.pathOf(key);
  if (storage instanceof S3Storage) return storage.locationOf(key);
  return key;
}
