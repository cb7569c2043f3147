import { join } from 'node:path';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeWorker } from '../../src/jobs/queue/index.js';
import { OfficePool } from '../../src/render/convert/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import type { PagesServer, PagesStack } from './pages-stack.js';

/** A docpipe worker behind a pages server, and what closes it. */
export interface PagesWorker {
  close(): Promise<void>;
}

/**
 * A worker with a real office process on a pages server's own queue prefix and storage, for the
 * page tests that create cases with documents (`startPagesStack` alone has no worker: a page
 * without documents needs none). One office process: the machine has two cores.
 */
export async function pagesWorker(stack: PagesStack, server: PagesServer): Promise<PagesWorker> {
  const storage = new LocalStorage(join(stack.redis.dir, 'storage'));
  const office = await OfficePool.start({ processes: 1 });
  const renderer = new Renderer({ preparer: new InlinePreparer(), converter: office, storage });
  const worker = await DocpipeWorker.start({
    redisUrl: stack.redis.url,
    prefix: server.config.queue.prefix,
    concurrency: 2,
    renderer,
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
  });
  return {
    async close() {
      await worker.close(5000);
      await office.close();
    },
  };
}
