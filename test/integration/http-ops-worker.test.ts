import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { waitUntil } from '../helpers/wait.js';
import { lease, leaseTags } from '../helpers/lease.js';

const root = projectRoot();
const tags = leaseTags;

let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A worker fed into metrics as `docpipe start` wires it, with a client, on a prefix of its own. */
async function metricsLane() {
  const prefix = `test-${randomUUID()}`;
  const connection = createRedis(stack.url, 'worker');
  onTestFinished(async () => {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.del(...keys);
    connection.disconnect();
  });
  const documents = new Queue('documents', { connection, prefix });
  onTestFinished(() => documents.close());
  const metrics = new DocpipeMetrics({
    queues: [documents],
    officeRestarts: () => stack.office.stats().restartsByCause,
  });
  const worker = await DocpipeWorker.start({
    redisUrl: stack.url,
    prefix,
    concurrency: 2,
    renderer: new Renderer({
      preparer: stack.preparer,
      converter: stack.office,
      storage: stack.storage,
    }),
    storage: stack.storage,
    library: new FolderLibrary(join(root, 'templates')),
    onDocumentJob: (report) => metrics.recordDocumentJob(report),
  });
  onTestFinished(() => worker.close(5000));
  const client = await DocpipeClient.connect({
    redisUrl: stack.url,
    prefix,
    storage: stack.storage,
  });
  onTestFinished(() => client.close());
  return { metrics, client };
}

describe('metrics fed by a real worker and office pool', () => {
  it('count a rendered job with its steps and queue wait, a failure by slug, and jobs by state', async () => {
    const { metrics, client } = await metricsLane();
    await client.render({ name: 'Lease', content: lease, tags });
    await expect(
      client.render({ name: 'Not a document', content: Buffer.from('plain text, not a document') }),
    ).rejects.toMatchObject({ slug: 'unsupported-file-type' });
    const text = await metrics.text();
    expect(text).toContain('docpipe_document_jobs_total{outcome="rendered"} 1');
    expect(text).toContain('docpipe_document_jobs_total{outcome="failed"} 1');
    expect(text).toContain(
      'docpipe_failures_total{slug="unsupported-file-type",retryable="false"} 1',
    );
    expect(text).toContain('docpipe_queue_wait_seconds_count 2');
    for (const step of ['cache', 'sniff', 'fill', 'harden', 'convert', 'check', 'store'])
      expect(text).toContain(`docpipe_render_step_duration_seconds_count{step="${step}"} 1`);
    expect(text).toContain('docpipe_jobs{queue="documents",state="completed"} 1');
    expect(text).toContain('docpipe_jobs{queue="documents",state="failed"} 1');
    expect(text).not.toMatch(/Lease|Not a document/);
  });

  it('count an office process that died while idle as a restart by cause "exited"', async () => {
    const { metrics } = await metricsLane();
    const before = stack.office.stats().restartsByCause.exited;
    const [pid] = stack.office.pids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await waitUntil(
      () => stack.office.stats().restartsByCause.exited === before + 1,
      20_000,
      'restart',
    );
    expect(await metrics.text()).toContain(
      `docpipe_office_restarts_total{cause="exited"} ${before + 1}`,
    );
    await waitUntil(() => stack.office.stats().ready === 2, 30_000, 'the pool warm again');
  });
});
