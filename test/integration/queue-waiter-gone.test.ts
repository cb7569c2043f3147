import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { JOB_SCHEMA_VERSION, type DocumentJobData } from '../../src/jobs/queue/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { leaseDocument } from '../helpers/docpipe-start.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * A job whose waiter has gone (the request's deadline passed, the process stopped before it could
 * withdraw the job) is skipped by the worker that takes it later, not rendered for nobody; batch
 * jobs, whose results are read later, carry no such time and are always done.
 */

let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack();
}, 120_000);
afterAll(async () => {
  await stack.close();
});

function jobData(i: number, run: string, waitUntil?: number): DocumentJobData {
  const doc = leaseDocument(i, run);
  return {
    v: JOB_SCHEMA_VERSION,
    field: `documents[${i}]`,
    name: doc.name,
    source: { inline: Buffer.from(doc.content!).toString('base64') },
    tags: doc.tags,
    ...(waitUntil !== undefined ? { waitUntil } : {}),
  };
}

describe('a job whose waiter is gone', () => {
  it('is skipped with a typed failure, tried once, while jobs without one or still waited for are rendered', async () => {
    const lane = await stack.lane({ concurrency: 1 });
    const events = new QueueEvents('documents', {
      connection: lane.connection,
      prefix: lane.prefix,
    });
    onTestFinished(() => events.close());
    await events.waitUntilReady();
    const run = `gone-${Date.now()}`;
    const gone = Date.now() - 1000;
    const jobs = await lane.documents.addBulk([
      {
        name: 'document',
        data: jobData(0, run, gone),
        opts: { jobId: `${run}-gone`, attempts: 3 },
      },
      { name: 'document', data: jobData(1, run), opts: { jobId: `${run}-batch` } },
      {
        name: 'document',
        data: jobData(2, run, Date.now() + 600_000),
        opts: { jobId: `${run}-waited` },
      },
    ]);
    const [skipped, batch, waited] = jobs;
    await expect(skipped!.waitUntilFinished(events, 60_000)).rejects.toThrow(
      /its waiter stopped waiting at/,
    );
    await batch!.waitUntilFinished(events, 60_000);
    await waited!.waitUntilFinished(events, 60_000);

    const stored = (await Job.fromId(lane.documents, skipped!.id!))!;
    expect(await stored.getState()).toBe('failed');
    // Not a failure that retries: one attempt of three.
    expect(stored.attemptsMade).toBe(1);
    expect(JSON.parse(stored.failedReason)).toEqual({
      error: 'document-conversion-failed',
      details: [
        {
          field: 'documents[0]',
          message: `not rendered: its waiter stopped waiting at ${new Date(gone).toISOString()}, before a worker took the job; send the request again`,
        },
      ],
      retryable: true,
    });
    for (const id of [batch!.id!, waited!.id!])
      expect(await lane.documents.getJobState(id)).toBe('completed');
  }, 120_000);

  it('a request that gives up on a running job ends the wait it wrote there, so that the job is skipped should it come back', async () => {
    const lane = await stack.lane();
    const controller = new AbortController();
    const slow = readFileSync(join(corpusDir(), 'docx/poi__bug65649.docx'));
    const asked = Date.now();
    const answer = lane.client.render(
      { name: 'slow', content: slow },
      { signal: controller.signal, timeoutMs: 600_000 },
    );
    await waitUntil(async () => (await lane.documents.getActiveCount()) === 1, 30_000, 'running');
    const [running] = await lane.documents.getActive();
    expect((running!.data as DocumentJobData).waitUntil).toBeGreaterThanOrEqual(asked + 600_000);
    controller.abort(new Error('the caller left'));
    await expect(answer).rejects.toThrow('the caller left');
    const stored = (await Job.fromId(lane.documents, running!.id!))!;
    const ended = (stored.data as DocumentJobData).waitUntil!;
    expect(ended).toBeLessThanOrEqual(Date.now());
    expect(ended).toBeGreaterThanOrEqual(asked);
  }, 120_000);

  it('a request writes when it stops waiting into its jobs; a batch and a keyed request do not', async () => {
    const lane = await stack.lane();
    const run = `marked-${Date.now()}`;
    const dataOf = async (id: string) =>
      (await Job.fromId(lane.documents, id))!.data as DocumentJobData;
    const ids = async () => (await lane.documents.getJobs(['completed'])).map((j) => j.id!);

    const before = Date.now();
    await lane.client.render(leaseDocument(0, run), { timeoutMs: 30_000 });
    const after = Date.now();
    const [rendered] = await ids();
    const waitUntil = (await dataOf(rendered!)).waitUntil!;
    expect(waitUntil).toBeGreaterThanOrEqual(before + 30_000);
    expect(waitUntil).toBeLessThanOrEqual(after + 30_000);

    // A caller that ends the wait itself (the HTTP convert's deadline) says when: the earlier wins.
    const deadline = Date.now() + 5_000;
    await lane.client.renderDocumentSet([leaseDocument(1, run), leaseDocument(2, run)], {
      waitUntil: deadline,
    });
    await lane.client.render(leaseDocument(3, run), { idempotencyKey: `${run}-keyed` });
    await lane.client.renderEach([{ document: leaseDocument(4, run), jobId: `${run}-batch` }]);

    const all = await lane.documents.getJobs(['completed']);
    const byName = new Map(
      all.map((j) => [(j.data as DocumentJobData).name, j.data as DocumentJobData]),
    );
    expect(byName.get('Lease 1')?.waitUntil).toBe(deadline);
    expect(byName.get('Lease 2')?.waitUntil).toBe(deadline);
    // A keyed request may come back for its job after its wait; a batch's results are read later.
    expect(byName.get('Lease 3')).toBeDefined();
    expect(byName.get('Lease 3')).not.toHaveProperty('waitUntil');
    expect(byName.get('Lease 4')).toBeDefined();
    expect(byName.get('Lease 4')).not.toHaveProperty('waitUntil');
  }, 120_000);
});
