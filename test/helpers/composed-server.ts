import { join } from 'node:path';
import { Queue } from 'bullmq';
import { onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import type { HttpSurface } from '../../src/surfaces/http/common/surface.js';
import {
  redisReady,
  storageWritable,
} from '../../src/surfaces/http/operations/readiness-checks.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import type { TestDatabase } from './postgres.js';
import type { RedisOnly } from './queue-stack.js';
import { testDir } from './test-dir.js';

/** The public URL the composed server issues its URLs under (nothing listens there). */
export const COMPOSED_PUBLIC_URL = 'http://127.0.0.1:9';

export interface ComposedServer {
  app: HttpApp;
  /** The key store of `t`'s database, to make keys with (whatever the server asks). */
  keys: KeyStore;
}

/**
 * The HTTP service as `docpipe serve` composes it, on a Redis lane of its own and `t`'s
 * database, with no worker: the documents and document-sets queues to count, readiness checks on
 * the lane and the storage; every surface unless `surfaces`. `env` adds to or overrides the configuration; `askKeys` is asked for
 * keys instead of `t`'s key store (a database that does not answer). Called inside a test: all
 * of it is closed when the test finishes.
 */
export async function composedServer(
  redis: RedisOnly,
  t: TestDatabase,
  options: {
    env?: Record<string, string>;
    surfaces?: readonly HttpSurface[];
    askKeys?: KeyStore;
  } = {},
): Promise<ComposedServer> {
  const lane = await redis.lane();
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    ...options.env,
  });
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url, environment: config.environment });
  const client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix: lane.prefix,
    storage: new LocalStorage(testDir('composed-server-client')),
    noWorkerMs: 100,
  });
  onTestFinished(() => client.close());
  const storage = new LocalStorage(testDir('composed-server-storage'));
  const queues = ['documents', 'document-sets'].map(
    (name) => new Queue(name, { connection: lane.connection, prefix: lane.prefix }),
  );
  onTestFinished(async () => {
    for (const q of queues) await q.close();
  });
  const app = await buildHttpServer(
    {
      config,
      publicUrl: COMPOSED_PUBLIC_URL,
      redis: lane.connection,
      redisUrl: redis.url,
      db: t.db,
      keys: options.askKeys ?? keys,
      client,
      storage,
      library: new FolderLibrary(config.templatesDir),
      preparer: new InlinePreparer(),
      metrics: new DocpipeMetrics({ queues, processMetrics: false }),
      checks: { redis: redisReady(lane.connection), storage: storageWritable(storage) },
      queues,
    },
    options.surfaces,
  );
  onTestFinished(() => app.close());
  return { app, keys };
}
