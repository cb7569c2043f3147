import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import {
  CompanyQueueFullError,
  DocpipeClient,
  DocpipeWorker,
  type DocpipeClientOptions,
} from '../../src/jobs/queue/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { ScriptedConverter, convertedPdf } from '../helpers/scripted-converter.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Fair sharing between companies on a real Redis, with the preparer inline and a converter that
 * takes a fixed time: the order in which the converter sees documents is the schedule.
 * Documents are told apart by their names (the PDF's title reaches the converter).
 */

let redis: RedisOnly;
let pdf: Buffer;
const CONCURRENCY = 2;

beforeAll(async () => {
  redis = await startRedisOnly();
  pdf = await convertedPdf();
});
afterAll(() => redis.close());

/** A converter that takes `ms` for each document and records who was converting at once. */
function slowConverter(ms: number) {
  const converting = new Map<string, number>();
  const most = new Map<string, number>();
  const converter = new ScriptedConverter(async (_, request) => {
    const company = (request.title ?? '').split('-')[0]!;
    converting.set(company, (converting.get(company) ?? 0) + 1);
    most.set(company, Math.max(most.get(company) ?? 0, converting.get(company)!));
    await new Promise((r) => setTimeout(r, ms));
    converting.set(company, converting.get(company)! - 1);
    return pdf;
  });
  return { converter, most, order: () => converter.requests.map((r) => r.title) };
}

async function lane(
  converter: ScriptedConverter,
  client: Partial<DocpipeClientOptions> = {},
  companyMaxActive = 0,
) {
  const lane = await redis.lane();
  const storage = new LocalStorage(join(redis.dir, `storage-${lane.prefix}`));
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix: lane.prefix,
    concurrency: CONCURRENCY,
    renderer: new Renderer({ preparer: new InlinePreparer(), converter, storage }),
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    companyMaxActive,
  });
  onTestFinished(() => worker.close(5000));
  const connect = (options: Partial<DocpipeClientOptions> = {}) =>
    DocpipeClient.connect({
      redisUrl: redis.url,
      prefix: lane.prefix,
      storage,
      ...client,
      ...options,
    }).then((c) => {
      onTestFinished(() => c.close());
      return c;
    });
  const documents = new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
  onTestFinished(() => documents.close());
  return { connect, documents, lane, worker };
}

/** Distinct documents (distinct values: no answer from the render cache). */
const batch = (company: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    document: {
      name: `${company}-${i}`,
      content: buildDocx({ body: para('Dear {name}') }),
      tags: [{ tag: 'name', value: `${company} ${i}`, type: 'text' as const }],
    },
  }));

/** Enqueues A's batch, waits until the workers are on it, then B's single document. */
async function batchThenOne(
  connect: Awaited<ReturnType<typeof lane>>['connect'],
  order: () => unknown[],
) {
  const a = await connect({ company: 'company-a' });
  const b = await connect({ company: 'company-b' });
  const batchDone = a.renderEach(batch('A', 30));
  while (order().length < 2) await new Promise((r) => setTimeout(r, 5));
  const single = batch('B', 1)[0]!.document;
  await b.render(single);
  await batchDone;
  return order().indexOf('B-0');
}

describe('fair sharing between companies', () => {
  it("runs another company's single document within a few conversions of its arrival, not after the batch", async () => {
    const { converter, order } = slowConverter(20);
    const { connect } = await lane(converter);
    const at = await batchThenOne(connect, order);
    expect(order()).toHaveLength(31);
    // The workers were on A's first documents; B's goes next once a slot frees: at most the
    // ones converting and the ones already handed to a slot.
    expect(at).toBeGreaterThanOrEqual(2);
    expect(at).toBeLessThanOrEqual(2 + 2 * CONCURRENCY);
  });

  it('without fair sharing, the same document waits behind the whole batch (first in, first out)', async () => {
    const { converter, order } = slowConverter(20);
    const { connect } = await lane(converter, { fairShare: false });
    const at = await batchThenOne(connect, order);
    expect(order()).toHaveLength(31);
    expect(at).toBeGreaterThanOrEqual(30 - CONCURRENCY);
  });

  it('has two busy companies take turns', async () => {
    const { converter, order } = slowConverter(5);
    const { connect } = await lane(converter);
    const a = await connect({ company: 'company-a' });
    const c = await connect({ company: 'company-c' });
    const first = a.renderEach(batch('A', 10));
    while (order().length < 1) await new Promise((r) => setTimeout(r, 5));
    await Promise.all([first, c.renderEach(batch('C', 10))]);
    const seen = order().map((t) => t!.split('-')[0]);
    expect(seen).toHaveLength(20);
    // After C's batch arrived, neither company ran more than a slot's worth in a row ahead of
    // the other while both had work: C's last document is done before A's last few.
    const lastC = seen.lastIndexOf('C');
    const lastA = seen.lastIndexOf('A');
    expect(Math.abs(lastC - lastA)).toBeLessThanOrEqual(1 + 2 * CONCURRENCY);
    expect(seen.slice(0, 10).filter((s) => s === 'C').length).toBeGreaterThanOrEqual(3);
  });

  it("refuses a request that would pass its company's cap on waiting jobs, queuing none of it", async () => {
    const { converter } = slowConverter(1);
    const { connect, documents } = await lane(converter, { companyMaxQueued: 5 });
    const a = await connect({ company: 'company-a' });
    // Withheld: no worker may take a job while the cap is checked.
    await documents.pause();
    const refused = await rejectionOf(a.renderEach(batch('A', 6)), CompanyQueueFullError);
    expect(refused).toMatchObject({ company: 'company-a', queued: 0, asked: 6, cap: 5 });
    expect(refused.message).toContain('DOCPIPE_COMPANY_MAX_QUEUED');
    expect(await documents.count()).toBe(0);
    // Another company has a line of its own.
    const b = await connect({ company: 'company-b' });
    const waiting = b.renderEach(batch('B', 5));
    await expect.poll(() => documents.count()).toBe(5);
    await documents.resume();
    const outcomes = await waiting;
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true]);
    // Started jobs no longer wait: the cap is free again.
    const again = await a.renderEach(batch('A', 5));
    expect(again.filter((o) => o.ok)).toHaveLength(5);
  });

  it('a withdrawn request frees its places in the line', async () => {
    const { converter } = slowConverter(1);
    const { connect, documents, lane: l } = await lane(converter, { companyMaxQueued: 2 });
    const a = await connect({ company: 'company-a' });
    await documents.pause();
    const gaveUp = await rejectionOf(
      a.render(batch('A', 1)[0]!.document, { timeoutMs: 200 }),
      DocpipeError,
    );
    expect(gaveUp).toMatchObject({ slug: 'document-conversion-failed' });
    expect(await l.connection.zcard(`${l.prefix}:fair:queued:company-a`)).toBe(0);
    await documents.resume();
  });

  it('converts at most DOCPIPE_COMPANY_MAX_ACTIVE of one company at once, while another company runs beside it', async () => {
    const { converter, most, order } = slowConverter(30);
    const { connect } = await lane(converter, {}, 1);
    const a = await connect({ company: 'company-a' });
    const b = await connect({ company: 'company-b' });
    const outcomes = await Promise.all([a.renderEach(batch('A', 6)), b.renderEach(batch('B', 6))]);
    expect(outcomes.flat().filter((o) => o.ok)).toHaveLength(12);
    expect(order()).toHaveLength(12);
    expect(most.get('A')).toBe(1);
    expect(most.get('B')).toBe(1);
  });

  it("hands a job waiting for its company's turn back to the queue when the worker stops, not started", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const converter = new ScriptedConverter(async () => {
      await gate;
      return pdf;
    });
    const { connect, documents, worker } = await lane(converter, {}, 1);
    const a = await connect({ company: 'company-a' });
    const ids = ['A-first', 'A-second'];
    const done = a
      .renderEach(batch('A', 2).map((b, i) => ({ ...b, jobId: ids[i] })))
      .catch(() => undefined);
    // Both taken by the worker: the first converting, the second waiting for the company's turn.
    await waitUntil(
      async () => converter.requests.length === 1 && (await documents.getActiveCount()) === 2,
      10_000,
      'one converting, one waiting for its turn',
    );
    const closed = worker.close(60_000);
    await waitUntil(
      async () => (await documents.getActiveCount()) === 1,
      10_000,
      'the waiting job handed back',
    );
    release();
    await closed;
    expect(converter.requests).toHaveLength(1);
    expect(worker.stopReport).toEqual({ finished: 1, handedBack: 1, queued: 1 });
    expect(await documents.getJobState('A-first')).toBe('completed');
    expect(await documents.getJobState('A-second')).toBe('prioritized');
    // Not an attempt used up: the next worker starts it as new.
    expect((await documents.getJob('A-second'))?.attemptsMade).toBe(0);
    await a.close();
    await done;
  });

  it('starts the line over when nothing waits: places stay far below BullMQ’s highest priority', async () => {
    const { converter } = slowConverter(1);
    const { connect, documents } = await lane(converter);
    const a = await connect({ company: 'company-a' });
    await a.renderEach(batch('A', 4));
    const priorities = async () =>
      (await documents.getJobs(['completed'])).map((j) => j.priority).sort((x, y) => x - y);
    expect(await priorities()).toEqual([1, 2, 3, 4]);
    await a.render(batch('A', 5)[4]!.document);
    // Nothing waited when it came: place 1 again, not 5.
    expect(await priorities()).toEqual([1, 1, 2, 3, 4]);
  });
});
