import { join } from 'node:path';
import type { DocpipeConfig } from '../config/index.js';
import { LocalStorage } from '../storage/index.js';

/** The configured document store: renders and uploads under DOCPIPE_DATA_DIR/storage. */
export function openStorage(config: DocpipeConfig): LocalStorage {
  return new LocalStorage(join(config.dataDir, 'storage'));
}
