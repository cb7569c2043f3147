import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execFileSync } from 'node:child_process';
import { OfficePool } from '../../src/render/convert/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { convertRoutes } from '../../src/surfaces/http/convert/convert-routes.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker, jobDataProblems } from '../../src/jobs/queue/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { buildFontDocx, fontRun } from '../helpers/fidelity-docx.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';

/**
 * Notices and strict fidelity through the queue and the convert endpoint: a private Redis, a
 * worker whose renderer is strict by default (as DOCPIPE_STRICT_FIDELITY=true makes it), one
 * warm LibreOffice.
 */

const segoeReplacement = execFileSync('fc-match', ['-f', '%{family[0]}', 'Segoe UI'], {
  encoding: 'utf8',
});
const segoe = buildFontDocx({ body: para(fontRun('Segoe UI', 'Fortrolighedsaftale')) });
const installed = buildFontDocx({ body: para(fontRun('Liberation Sans', 'Samtykke')) });

let redis: RedisOnly;
let preparer: PreparePool;
let office: OfficePool;
let storage: LocalStorage;
beforeAll(async () => {
  redis = await startRedisOnly();
  preparer = new PreparePool({ threads: 1 });
  office = await OfficePool.start({ processes: 1 });
  mkdirSync(join(redis.dir, 'storage'));
  storage = new LocalStorage(join(redis.dir, 'storage'));
});
afterAll(async () => {
  await office.close();
  await preparer.close();
  await redis.close();
});

async function strictLane() {
  const lane = await redis.lane();
  const renderer = new Renderer({ preparer, converter: office, storage, fidelity: 'strict' });
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix: lane.prefix,
    concurrency: 2,
    renderer,
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
  });
  onTestFinished(() => worker.close(5000));
  const client = await DocpipeClient.connect({ redisUrl: redis.url, prefix: lane.prefix, storage });
  onTestFinished(() => client.close());
  return client;
}

const renders = () =>
  readdirSync(join(redis.dir, 'storage'), { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith('.pdf'),
  ).length;

describe('fidelity through the queue', () => {
  it("refuses by the worker's default, and reports when the job says so", async () => {
    const client = await strictLane();
    const before = renders();
    const refused = await rejectionOf(client.render({ name: 'nda', content: segoe }), DocpipeError);
    expect(refused.slug).toBe('document-production-failed');
    expect(refused.details).toEqual([
      {
        field: 'documents[0]',
        message: `font "Segoe UI" is not installed; LibreOffice used ${segoeReplacement}, which is not metric-compatible: install the font or choose another`,
      },
    ]);
    expect(renders()).toBe(before);
    const reported = await client.render({
      name: 'nda',
      content: segoe,
      options: { fidelity: 'report' },
    });
    expect(reported.kind).toBe('rendered');
    if (reported.kind !== 'rendered') return;
    expect(reported.result.notices).toEqual([
      expect.objectContaining({
        code: 'font-substituted',
        font: 'Segoe UI',
        metricCompatible: false,
      }),
    ]);
    expect(renders()).toBe(before + 1);
  });

  it('answers the notices of each document from the convert endpoint, naming it', async () => {
    const client = await strictLane();
    const app = createHttpApp({ bodyLimit: 10 * 1024 * 1024 });
    app.addHook('onRequest', (request, _reply, done) => {
      request.apiKey = { id: 'k1', company: 'acme', name: 'test' };
      done();
    });
    // The endpoint has no options: a strict worker would refuse Segoe UI, so this lane reports.
    const reporting = {
      render: (d: Parameters<typeof client.render>[0], r: Parameters<typeof client.render>[1]) =>
        client.render({ ...d, options: { ...d.options, fidelity: 'report' } }, r),
      renderDocumentSet: (
        ds: Parameters<typeof client.renderDocumentSet>[0],
        r: Parameters<typeof client.renderDocumentSet>[1],
      ) =>
        client.renderDocumentSet(
          ds.map((d) => ({ ...d, options: { ...d.options, fidelity: 'report' as const } })),
          r,
        ),
    };
    await app.register(convertRoutes, {
      client: reporting,
      storage,
      resolveDocumentUrl: () => Promise.resolve(undefined),
      signedUrlFor: (key) => `https://docpipe.test/files/${key}`,
    });
    onTestFinished(() => app.close());
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [
          { file: installed.toString('base64'), name: 'samtykke.docx' },
          { file: segoe.toString('base64'), name: 'nda.docx' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ documents: unknown[]; notices?: unknown[] }>();
    expect(body.documents).toHaveLength(2);
    expect(body.notices).toEqual([
      {
        code: 'font-substituted',
        message: `font "Segoe UI" is not installed; LibreOffice used ${segoeReplacement}, which is not metric-compatible: install the font or choose another`,
        font: 'Segoe UI',
        replacement: segoeReplacement,
        metricCompatible: false,
        field: 'documents[1]',
      },
    ]);
    const quiet = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: { documents: [{ file: installed.toString('base64'), name: 'samtykke.docx' }] },
    });
    expect(quiet.json()).not.toHaveProperty('notices');
  });

  it('refuses a fidelity the contract does not know', () => {
    expect(
      jobDataProblems({
        v: 1,
        field: 'documents[0]',
        name: 'nda',
        source: { inline: '' },
        options: { fidelity: 'loose' },
      }),
    ).toEqual([{ field: 'documents[0].options.fidelity', message: 'must be report or strict' }]);
  });
});
