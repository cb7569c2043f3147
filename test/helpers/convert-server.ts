import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import type { Storage } from '../../src/render/storage/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { convertRoutes } from '../../src/surfaces/http/convert/convert-routes.js';
import {
  documentUrlResolver,
  renderUrlSigner,
} from '../../src/surfaces/http/convert/document-urls.js';
import { downloadRoutes } from '../../src/surfaces/http/downloads/download-routes.js';
import { fileRoutes } from '../../src/surfaces/http/files/file-routes.js';
import { RedisSignedUrlCache } from '../../src/surfaces/http/files/signed-url-cache.js';
import type { Lane, RedisOnly } from './queue-stack.js';
import { ScriptedConverter } from './scripted-converter.js';

export const CONVERT_PUBLIC_URL = 'http://docs.example.test';
export const CONVERT_SECRET = 'a-test-signing-secret-of-32-chars!';
const MB = 1024 * 1024;

export interface ConvertServer {
  app: HttpApp;
  lane: Lane;
  client: DocpipeClient;
  /** What the worker was asked to convert; it answers `pdf` to each. */
  converter: ScriptedConverter;
}

/**
 * The upload and convert routes (and, with `downloads`, the download route) as the server puts
 * them together, on a lane of its own with a real worker whose converter is scripted, in place of
 * LibreOffice. A stand-in for the authentication hook gives every request a key of company
 * `acme`; the hook itself is tested by its owner. Called inside a test: all of it is closed when
 * the test finishes.
 */
export async function convertServer(
  redis: RedisOnly,
  options: { storage: Storage; pdf: Buffer; concurrency: number; downloads?: boolean },
): Promise<ConvertServer> {
  const { storage, pdf } = options;
  const lane = await redis.lane();
  const converter = new ScriptedConverter(() => Promise.resolve(pdf));
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix: lane.prefix,
    concurrency: options.concurrency,
    renderer: new Renderer({ preparer: new InlinePreparer(), converter, storage }),
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
  });
  onTestFinished(() => worker.close(5000));
  // As the server wires it: with storage for content too large to travel inline.
  const client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix: lane.prefix,
    storage,
    publicUrl: CONVERT_PUBLIC_URL,
  });
  onTestFinished(() => client.close());
  const urls = {
    publicUrl: CONVERT_PUBLIC_URL,
    signingSecret: CONVERT_SECRET,
    signedUrlTtlSeconds: 900,
  };
  const app: HttpApp = createHttpApp({ bodyLimit: 16 * MB });
  onTestFinished(async () => {
    // Ends the test client's keep-alive connections too, busy or not: close() alone waits for
    // a connection Node does not count as idle, which once held a test's end past its minute.
    const closing = app.close();
    app.server.closeAllConnections();
    await closing;
  });
  await app.register(async (keyed: HttpApp) => {
    keyed.addHook('onRequest', (request, _reply, done) => {
      request.apiKey = { id: 'k1', company: 'acme', name: 'test' };
      done();
    });
    await keyed.register(fileRoutes, {
      ...urls,
      storage,
      preparer: new InlinePreparer(),
      signedUrls: new RedisSignedUrlCache(lane.connection, lane.prefix),
      maxUploadBytes: 8 * MB,
      bodyLimitBytes: 16 * MB,
    });
    await keyed.register(convertRoutes, {
      client,
      storage,
      resolveDocumentUrl: documentUrlResolver({ ...urls, storage }),
      signedUrlFor: renderUrlSigner(urls),
    });
  });
  if (options.downloads)
    await app.register(downloadRoutes, { storage, signingSecret: CONVERT_SECRET });
  return { app, lane, client, converter };
}
