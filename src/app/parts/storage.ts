import { join } from 'node:path';
import type { DocpipeConfig } from '../config/index.js';
import { LocalStorage, S3Storage, type Storage } from '../../render/storage/index.js';

/** One store per configuration: `docpipe start`'s worker, HTTP service and client share it. */
const opened = new WeakMap<DocpipeConfig, Promise<Storage>>();

/**
 * The configured document store: DOCPIPE_DATA_DIR/storage on local disk, or the S3 bucket of
 * DOCPIPE_S3_*, whose bucket and credentials are checked here, at start-up: a missing bucket,
 * refused credentials or an unreachable endpoint are a StorageUnavailableError saying what to
 * fix, before any work is taken.
 */
export function openStorage(config: DocpipeConfig): Promise<Storage> {
  const storage = config.storage;
  if (storage.kind === 'local')
    return Promise.resolve(new LocalStorage(join(config.dataDir, 'storage')));
  let open = opened.get(config);
  if (!open) {
    open = S3Storage.open(storage).then(async (s3) => {
      await s3.checkBucket().catch((err: unknown) => {
        s3.close();
        throw err;
      });
      return s3;
    });
    // A failed start may be tried again (a store that was still starting).
    open.catch(() => opened.delete(config));
    opened.set(config, open);
  }
  return open;
}
