import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import type { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { openDatabase } from '../../src/platform/postgres/index.js';
import type { Database } from '../../src/service/db/index.js';
import { buildHttpServer } from '../../src/surfaces/http/index.js';

/**
 * The OpenAPI document as `docpipe serve` serves it at /openapi.json: every surface composed by
 * the real server, with parts that are never called while the document is asked for (a Redis
 * and a database pool that never connect, a producer client that is never used). Needs no server, and may be called
 * outside a test (in beforeAll).
 */
export async function servedOpenApi(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
  });
  // Asked nothing: the rate limit and the key store only hold it until a request is counted.
  const storage = mkdtempSync(join(tmpdir(), 'served-openapi-'));
  const redis = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  // A pool connects on its first query, and nothing here queries.
  const databaseUrl = 'postgresql://docpipe@/docpipe?host=/nonexistent';
  const db = openDatabase<Database>(databaseUrl);
  const app = await buildHttpServer({
    config,
    publicUrl: 'http://127.0.0.1:8080',
    redis,
    redisUrl: 'redis://127.0.0.1:9',
    db,
    keys: new KeyStore({ db, databaseUrl }),
    // The convert route's producer: only a conversion calls it.
    client: {} as DocpipeClient,
    storage: new LocalStorage(storage),
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
  });
  try {
    const answer = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`/openapi.json answered ${answer.statusCode}`);
    return answer.json<Record<string, unknown>>();
  } finally {
    await app.close();
    redis.disconnect();
    await db.destroy();
    rmSync(storage, { recursive: true, force: true });
  }
}
