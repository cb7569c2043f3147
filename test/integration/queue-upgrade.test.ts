import { join } from 'node:path';
import { FlowProducer, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { startRedisOnly, type Lane, type RedisOnly } from '../helpers/queue-stack.js';
import { ScriptedConverter, convertedPdf } from '../helpers/scripted-converter.js';

/**
 * An upgrade across the rename of the queue's "case" to "document set": document sets an
 * earlier version queued under `cases` (its queue name, its job names and data) are answered by
 * a worker of this version, and new ones go to `document-sets`. On a real Redis, with the
 * preparation in the worker's thread and a scripted converter in place of LibreOffice.
 */

let redis: RedisOnly;
let pdf: Buffer;

beforeAll(async () => {
  redis = await startRedisOnly();
  pdf = await convertedPdf();
});
afterAll(() => redis.close());

const template = (text: string) => buildDocx({ body: para(text) });

function queueOf(lane: Lane, name: string): Queue {
  const queue = new Queue(name, { connection: lane.connection, prefix: lane.prefix });
  onTestFinished(() => queue.close());
  return queue;
}

async function startWorker(
  lane: Lane,
): Promise<{ worker: DocpipeWorker; converter: ScriptedConverter }> {
  const storage = new LocalStorage(join(redis.dir, `storage-${lane.prefix}`));
  const converter = new ScriptedConverter(() => Promise.resolve(pdf));
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix: lane.prefix,
    concurrency: 2,
    renderer: new Renderer({ preparer: new InlinePreparer(), converter, storage }),
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
  });
  onTestFinished(() => worker.close(5000));
  return { worker, converter };
}

/** A document job as every version so far wrote it (job contract v1). */
function documentJob(index: number, text: string) {
  return {
    v: 1,
    field: `documents[${index}]`,
    name: `document ${index}`,
    source: { inline: template(`${text} {name}`).toString('base64') },
    tags: [{ tag: 'name', value: `No. ${index}`, type: 'text' }],
  };
}

describe('upgrading across the rename of cases to document sets', () => {
  it('answers a set an earlier version left waiting under "cases", then stops watching that queue', async () => {
    const lane = await redis.lane();
    // What the earlier version's client added: a flow whose parent is named 'case' in the
    // 'cases' queue, its documents in 'documents', all waiting for a worker.
    const flows = new FlowProducer({ connection: lane.connection, prefix: lane.prefix });
    onTestFinished(() => flows.close());
    const added = await flows.add({
      name: 'case',
      queueName: 'cases',
      data: { v: 1, documents: 2 },
      opts: { jobId: 'before-the-upgrade' },
      children: [0, 1].map((i) => ({
        name: 'document',
        queueName: 'documents',
        data: documentJob(i, i === 0 ? 'First' : 'Second'),
        opts: { jobId: `before-the-upgrade-${i}`, attempts: 3, ignoreDependencyOnFailure: true },
      })),
    });
    const cases = queueOf(lane, 'cases');
    expect(await cases.getJobCounts('waiting-children')).toEqual({ 'waiting-children': 1 });
    // The earlier version's producer waits on the 'cases' queue's events for its answer.
    const events = new QueueEvents('cases', {
      connection: lane.connection,
      prefix: lane.prefix,
    });
    onTestFinished(() => events.close());
    await events.waitUntilReady();
    const answer = added.job.waitUntilFinished(events);

    const { worker, converter } = await startWorker(lane);
    expect(await answer).toEqual({
      ok: true,
      results: [
        expect.objectContaining({ field: 'documents[0]', kind: 'rendered' }),
        expect.objectContaining({ field: 'documents[1]', kind: 'rendered' }),
      ],
    });
    expect(converter.requests.map((r) => r.field).sort()).toEqual(['documents[0]', 'documents[1]']);
    await worker.legacyDrained;
    expect(await cases.getJobCounts('completed', 'waiting', 'waiting-children', 'active')).toEqual({
      completed: 1,
      waiting: 0,
      'waiting-children': 0,
      active: 0,
      // BullMQ counts the paused list with the waiting one.
      paused: 0,
    });
    // Drained, the old queue has no worker any more; the new ones still run.
    expect(await cases.getWorkers()).toEqual([]);
    expect(await queueOf(lane, 'document-sets').getWorkers()).toHaveLength(1);
  });

  it('adds new sets under "document-sets" only, and watches "cases" not at all when nothing is left there', async () => {
    const lane = await redis.lane();
    const { worker } = await startWorker(lane);
    await worker.legacyDrained;
    const cases = queueOf(lane, 'cases');
    expect(await cases.getWorkers()).toEqual([]);
    const client = await DocpipeClient.connect({ redisUrl: redis.url, prefix: lane.prefix });
    onTestFinished(() => client.close());
    const results = await client.renderDocumentSet(
      [0, 1].map((i) => ({
        name: `document ${i}`,
        content: template('Hello {name}'),
        tags: [{ tag: 'name', value: `No. ${i}`, type: 'text' }],
      })),
      { idempotencyKey: 'after-the-upgrade' },
    );
    expect(results.map((r) => [r.field, r.kind])).toEqual([
      ['documents[0]', 'rendered'],
      ['documents[1]', 'rendered'],
    ]);
    const set = await queueOf(lane, 'document-sets').getJob('after-the-upgrade');
    expect([set?.name, set?.finishedOn !== undefined]).toEqual(['document-set', true]);
    expect(Object.values(await cases.getJobCounts()).reduce((a, b) => a + b, 0)).toBe(0);
  });
});
