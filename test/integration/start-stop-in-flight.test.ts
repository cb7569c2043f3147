import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA_VERSION, type DocumentJobData } from '../../src/jobs/queue/index.js';
import { EmbeddedRedis, createRedis } from '../../src/platform/redis/index.js';
import { waiterGoneSince } from '../../src/jobs/queue/waiter-gone.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { mediumDocx } from '../helpers/long-documents.js';
import { StartedDocpipe, docpipeEnv, leaseDocument } from '../helpers/docpipe-start.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Ctrl-C while `docpipe start` works: the worker takes no job from the first one on and the log
 * says what runs and what stays queued; requests in flight are answered, 503 when the stop cuts
 * them short, and new requests meanwhile are answered 503 too (issue 32, item 20).
 */

/** 180 pages: a conversion of many seconds, running while the test stops docpipe. */
const slowDocx = () => readFileSync(join(corpusDir(), 'docx/poi__bug65649.docx'));

function batchJob(i: number, run: string): DocumentJobData {
  const doc = leaseDocument(i, run);
  return {
    v: JOB_SCHEMA_VERSION,
    field: `documents[${i}]`,
    name: doc.name,
    source: { inline: Buffer.from(doc.content!).toString('base64') },
    tags: doc.tags,
  };
}

/**
 * The records' PostgreSQL, with a company, its user and an API key made straight in the tables
 * (as `docpipe companies create`, `users add` and `keys create` would leave them): the worker's
 * test server (test/helpers/postgres.ts), not an embedded one per data folder. These tests are
 * about what a stop does to requests and jobs; the embedded PostgreSQL's first start (initdb) and
 * three spawned commands each took seconds of two cores before either test began.
 */
let records: TestDatabase;
let key: string;
beforeAll(async () => {
  records = await testDatabase();
  const owner = await addKeyOwner(records.db, 'acme', 'ops@acme.example');
  const keys = new KeyStore({ db: records.db, databaseUrl: records.url });
  key = (await keys.create({ company: owner.company, user: owner.email })).key;
});
afterAll(async () => {
  await records?.close();
});

/** A docpipe start on the records with the API key, and its queue, seen from outside. */
async function started(prefix: string) {
  const data = testDir(prefix);
  const env = docpipeEnv(data, { DOCPIPE_LOG_FORMAT: 'json', DATABASE_URL: records.url });
  const start = new StartedDocpipe(env, ['--grace', '60000']);
  await start.waitFor('docpipe started');
  const address = String(start.lines().find((l) => l.msg.startsWith('docpipe started'))?.http);
  const url = readFileSync(join(data, 'redis.url'), 'utf8').trim();
  const queue = new Queue('documents', {
    connection: createRedis(url, 'worker'),
    prefix: 'docpipe',
  });
  queue.on('error', () => undefined);
  return { start, address, key, queue, data };
}

/**
 * The slow document's jobs left in Redis once docpipe stopped that a worker would still render
 * (waiting, with no waitUntil or one still ahead), read by a Redis started on its folder.
 */
async function slowJobsStillToRender(data: string): Promise<string[]> {
  const redis = await EmbeddedRedis.start({ dir: join(data, 'redis') });
  const queue = new Queue('documents', {
    connection: createRedis(redis.url, 'worker'),
    prefix: 'docpipe',
  });
  try {
    const waiting = await queue.getJobs(['wait', 'prioritized', 'delayed', 'active']);
    return waiting
      .filter((j) => (j.data as DocumentJobData).name === 'slow.docx')
      .filter((j) => waiterGoneSince(j.data) === undefined)
      .map((j) => j.id!);
  } finally {
    await queue.close();
    await redis.stop();
  }
}

function convert(address: string, key: string, name: string, file: Buffer): Promise<Response> {
  return fetch(`${address}/api/v2/document/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ documents: [{ name, file: file.toString('base64') }] }),
  });
}

/** Once the job of the document named `name` runs in the worker. */
async function running(queue: Queue, name: string): Promise<void> {
  await waitUntil(
    async () => (await queue.getActive()).some((j) => (j.data as DocumentJobData).name === name),
    60_000,
    `${name} running`,
  );
}

const STOPPING =
  /^stopping: no new jobs; waiting up to 60 s for (\d+) running jobs? \((\d+) queued stay in Redis for the next start\); press Ctrl-C again to stop now$/;

describe('docpipe start: Ctrl-C while a request and a batch are in flight', () => {
  it('starts no job after the first Ctrl-C, answers the convert whose job runs, and says what ran and what stays queued', async () => {
    const { start, address, key, queue } = await started('docpipe-stop-in-flight-');
    const run = `in-flight-${Date.now()}`;
    try {
      // Its first 53 pages: seconds of work, still running when the Ctrl-C comes a batch later,
      // and a third of the whole document's to finish within the grace period (on a loaded
      // machine the 180 pages took longer than the convert's 60 s wait for an answer).
      const answer = convert(address, key, 'slow.docx', mediumDocx());
      await running(queue, 'slow.docx');
      // A batch behind it: the worker would take its jobs while the convert waits for its own.
      await queue.addBulk(
        Array.from({ length: 40 }, (_, i) => ({
          name: 'document',
          data: batchJob(i, run),
          opts: { jobId: `${run}-${i}` },
        })),
      );
      start.ctrlC();
      // Its job was running: it finishes within the grace period, and the request is answered.
      const response = await answer;
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await start.exited).toBe(0);

      const lines = start.lines();
      const at = lines.findIndex((l) => l.msg.startsWith('stopping: no new jobs'));
      const said = STOPPING.exec(lines[at]?.msg ?? '');
      expect(said, lines[at]?.msg).not.toBeNull();
      const runningAtStop = Number(said![1]);
      const queuedAtStop = Number(said![2]);
      expect(runningAtStop).toBeGreaterThan(0);
      expect(queuedAtStop).toBeGreaterThan(0);
      // No job started after the first Ctrl-C: only those running then ended.
      const doneAfter = lines.slice(at).filter((l) => l.msg === 'document job done').length;
      expect(doneAfter).toBeLessThanOrEqual(runningAtStop);
      expect(doneAfter).toBeGreaterThan(0);
      // What ended, and what it left: a job fetched just as the stop began went back, not started.
      const ended =
        /^jobs: (\d+) finished(?:, \d+ went back to the queue)?; (\d+) queued stay in Redis for the next start$/.exec(
          lines.find((l) => l.msg.startsWith('jobs: '))?.msg ?? '',
        );
      expect(ended).not.toBeNull();
      expect(Number(ended![1])).toBe(doneAfter);
      expect(Number(ended![2])).toBeGreaterThanOrEqual(queuedAtStop);
      expect(lines.at(-1)?.msg).toBe('stopped');
    } finally {
      await queue.close();
      await start.killAll();
    }
  }, 180_000);

  it('answers 503 to new requests during the stop, and to the convert a second Ctrl-C cuts short', async () => {
    const { start, address, key, queue, data } = await started('docpipe-stop-cut-');
    try {
      const answer = convert(address, key, 'slow.docx', slowDocx());
      await running(queue, 'slow.docx');
      start.ctrlC();
      await start.waitFor('stopping: no new jobs');

      // Readiness fails, so that a load balancer sends no more; liveness still answers.
      const ready = await fetch(`${address}/readyz`);
      expect(ready.status).toBe(503);
      const readiness = (await ready.json()) as {
        status: string;
        checks: Record<string, { ok: boolean; message?: string }>;
      };
      expect(readiness.status).toBe('not-ready');
      expect(readiness.checks.stopping).toMatchObject({ ok: false });
      expect((await fetch(`${address}/healthz`)).status).toBe(200);

      // A new request: 503 in its surface's shape, told when to come back, on a closing connection.
      const refused = await convert(address, key, 'lease.docx', Buffer.from('PK'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(refused.headers.get('connection')).toBe('close');
      const refusedBody = (await refused.json()) as {
        errors: { code: number; description: string }[];
      };
      expect(refusedBody.errors).toEqual([
        expect.objectContaining({
          code: 503,
          description: expect.stringMatching(/docpipe is stopping/),
        }),
      ]);
      const library = await fetch(`${address}/v3/api/library`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(library.status).toBe(503);
      expect(await library.json()).toEqual({ error: 'stopping', details: [] });

      // The second Ctrl-C cuts the convert short: it is answered, not dropped.
      start.ctrlC();
      const cut = await answer;
      expect(cut.status).toBe(503);
      expect(cut.headers.get('retry-after')).toBe('10');
      expect(cut.headers.get('connection')).toBe('close');
      const cutBody = (await cut.json()) as { errors: { code: number; description: string }[] };
      expect(cutBody.errors[0]).toMatchObject({ code: 503 });
      expect(cutBody.errors[0]!.description).toMatch(/docpipe is stopping/);
      expect(await start.exited).toBe(0);
      expect(start.lines().at(-1)?.msg).toBe('stopped');
      // Its job, cut short too, is not rendered after the restart: nobody waits for it.
      expect(await slowJobsStillToRender(data)).toEqual([]);
    } finally {
      await queue.close();
      await start.killAll();
    }
  }, 180_000);
});
