import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/platform/redis/index.js';
import { docpipe, docpipeEnv } from '../helpers/docpipe-start.js';
import { lease, leaseTags } from '../helpers/lease.js';
import { pdfText } from '../helpers/pdf-text.js';
import { DocpipeProcess } from '../helpers/processes.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { waitUntil } from '../helpers/wait.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * The deployment as several machines run it, every part a real process on loopback: one Redis,
 * one S3 server, one `docpipe serve` (HTTP and producers, no office processes) and two
 * `docpipe worker`s, each with a data folder of its own, so that the only things they share are
 * Redis, PostgreSQL (DATABASE_URL, where serve checks keys), the bucket and the signing secret.
 */

/**
 * A dead worker's jobs are picked up again once their lock has run out and the next check for
 * stalled jobs runs: seconds here, instead of a minute and a half with the defaults.
 */
const LOCK_MS = 4000;
const STALLED_CHECK_MS = 1000;
const DONE = 'document job done';

let redis: RedisOnly;
let s3: S3Server;
let t: TestDatabase;
let dir: string;
let serve: DocpipeProcess | undefined;
let workers: DocpipeProcess[] = [];
let address: string;
let key: string;
let connection: Redis | undefined;
let documents: Queue | undefined;

/** A machine's environment: its own data folder, and what every machine of the deployment shares. */
function machineEnv(name: string): NodeJS.ProcessEnv {
  return {
    ...docpipeEnv(join(dir, name), {
      ...s3.env,
      DOCPIPE_SIGNING_SECRET: 'the-signing-secret-every-machine-shares',
      DOCPIPE_LOCK_DURATION_MS: String(LOCK_MS),
      DOCPIPE_STALLED_INTERVAL_MS: String(STALLED_CHECK_MS),
      // The batches below are more requests a minute than the default limit lets one key send.
      DOCPIPE_RATE_LIMIT_V2: '0',
    }),
    // After docpipeEnv, which removes any REDIS_URL the test runner was given.
    REDIS_URL: redis.url,
    DATABASE_URL: t.url,
  };
}

beforeAll(async () => {
  [redis, s3, t] = await Promise.all([startRedisOnly(), startS3Server(), testDatabase()]);
  const owner = await addKeyOwner(t.db, 'acme');
  dir = mkdtempSync(join(tmpdir(), 'docpipe-multi-'));
  serve = DocpipeProcess.start('serve', machineEnv('serve'));
  workers = ['worker-a', 'worker-b'].map((name) =>
    DocpipeProcess.start('worker', machineEnv(name)),
  );
  const [listening] = await Promise.all([
    serve.waitForLine('docpipe serving HTTP'),
    ...workers.map((w) => w.waitForLine('worker started')),
  ]);
  address = String(listening.http);
  const created = docpipe(
    machineEnv('serve'),
    'keys',
    'create',
    '--company',
    'acme',
    '--user',
    owner.email,
    '--name',
    'multi',
  );
  expect(created.status, created.stderr).toBe(0);
  key = created.stdout.trim();
  connection = createRedis(redis.url, 'worker');
  documents = new Queue('documents', { connection, prefix: 'docpipe' });
}, 120_000);

afterAll(async () => {
  await documents?.close();
  connection?.disconnect();
  const started = serve ? [serve, ...workers] : workers;
  await Promise.all(started.map((p) => p.kill()));
  await s3?.stop();
  await redis?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a caller does with one document: convert it through HTTP, then download its PDF. */
interface Sent {
  status: number;
  /** The signed URL the answer gave, and what downloading it returned. */
  file?: string;
  download?: { status: number; contentType: string | null; bytes: Buffer };
}

/** Sends `count` leases named `<batch>-<i>`, each with its own contract number, `inFlight` at once. */
async function sendBatch(
  batch: string,
  count: number,
  inFlight: number,
  settled: Sent[] = [],
): Promise<Sent[]> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < count; i = next++) settled[i] = await convertAndDownload(batch, i);
    }),
  );
  return settled;
}

async function convertAndDownload(batch: string, i: number): Promise<Sent> {
  const response = await fetch(`${address}/api/v2/document/convert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      documents: [{ file: lease.toString('base64'), name: `${batch}-${i}` }],
      tags: leaseTags.map((t) => (t.tag === 'contract_no' ? { ...t, value: `${batch}-${i}` } : t)),
    }),
  });
  const body = (await response.json()) as { documents?: { file: string }[] };
  const file = body.documents?.[0]?.file;
  if (response.status !== 200 || file === undefined) return { status: response.status };
  const pdf = await fetch(file);
  return {
    status: response.status,
    file,
    download: {
      status: pdf.status,
      contentType: pdf.headers.get('content-type'),
      bytes: Buffer.from(await pdf.arrayBuffer()),
    },
  };
}

/** Every answer is 200 and its PDF, downloaded through serve, is that very document's. */
function expectEveryPdf(batch: string, sent: Sent[], count: number): void {
  expect(sent.filter((s) => s?.status === 200)).toHaveLength(count);
  sent.forEach((s, i) => {
    expect(s.file!.startsWith(`${address}/files/`), s.file).toBe(true);
    expect(s.download!.status).toBe(200);
    expect(s.download!.contentType).toBe('application/pdf');
    expect(s.download!.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(s.download!.bytes);
    expect(text).toContain('Lejekontrakt nr.');
    expect(text).toContain(`${batch}-${i}`);
  });
}

/** The batch's jobs in `state` on the documents queue (jobs are named after their document). */
async function jobsOf(batch: string, state: 'completed' | 'failed'): Promise<Job[]> {
  const all = await documents!.getJobs([state], 0, -1);
  return all.filter((j) => (j.data as { name: string }).name.startsWith(`${batch}-`));
}

/** Jobs `worker` holds now (active, under its lock). */
async function activeOn(worker: DocpipeProcess): Promise<number> {
  const active = await documents!.getActive();
  return active.filter((j) => j.processedBy === nameOf(worker)).length;
}

/** BullMQ's `processedBy` of a job that `worker` ran: `<host>:<pid>`. */
const nameOf = (worker: DocpipeProcess) => `${hostname()}:${worker.pid}`;

/** The renders in the bucket: the PDFs the workers stored, wherever they ran. */
async function rendersInBucket(): Promise<number> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  let count = 0;
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
      );
      count += (page.Contents ?? []).filter((o) => /(^|\/)renders\/.+\.pdf$/.test(o.Key!)).length;
      token = page.NextContinuationToken;
    } while (token);
  } finally {
    client.destroy();
  }
  return count;
}

/** PDFs under the machines' own data folders: none, when storage is the shared bucket. */
function pdfsOnDisk(): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.pdf'));
}

/** Processes whose command line names `text`: the office processes a worker started carry its pid. */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

describe('one serve, two workers, one Redis, one S3 server', () => {
  const FIRST = 24;

  it('converts a batch sent through HTTP on both workers; serve hands out every PDF', async () => {
    const sent = await sendBatch('first', FIRST, 8);
    expectEveryPdf('first', sent, FIRST);

    const done = await jobsOf('first', 'completed');
    expect(done).toHaveLength(FIRST);
    expect(await jobsOf('first', 'failed')).toHaveLength(0);
    const by = (w: DocpipeProcess) => done.filter((j) => j.processedBy === nameOf(w)).length;
    const [a, b] = workers.map(by);
    expect(a! + b!, done.map((j) => j.processedBy).join(' ')).toBe(FIRST);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    // Every PDF is in the bucket, none on a machine's disk: serve read what the workers stored.
    expect(await rendersInBucket()).toBe(FIRST);
    expect(pdfsOnDisk()).toEqual([]);
  });

  it('loses nothing when a worker is killed mid-batch: the other takes over its jobs', async () => {
    const COUNT = 48;
    const [victim, survivor] = workers as [DocpipeProcess, DocpipeProcess];
    const doneBefore = victim.count(DONE);
    const sent: Sent[] = [];
    // More requests in flight than both workers take at once (3 each), so that jobs wait and
    // the victim always holds some: it dies with jobs in its hands.
    const batch = sendBatch('kill', COUNT, 16, sent);
    await waitUntil(
      async () =>
        !victim.running || (victim.count(DONE) >= doneBefore + 5 && (await activeOn(victim)) > 0),
      60_000,
      'the first worker to convert 5 documents of the batch and hold more',
    );
    const officeOfVictim = `docpipe-${victim.pid}-`;
    expect(processesNaming(officeOfVictim).length).toBeGreaterThan(0);
    await victim.kill();
    const settledAtKill = sent.filter((s) => s !== undefined).length;
    expect(settledAtKill).toBeLessThan(COUNT);
    await batch;

    expectEveryPdf('kill', sent, COUNT);
    const done = await jobsOf('kill', 'completed');
    expect(done).toHaveLength(COUNT);
    expect(await jobsOf('kill', 'failed')).toHaveLength(0);
    const byVictim = done.filter((j) => j.processedBy === nameOf(victim));
    const bySurvivor = done.filter((j) => j.processedBy === nameOf(survivor));
    expect(byVictim.length + bySurvivor.length).toBe(COUNT);
    // It logged 5 done; the last of them may have died with it before BullMQ recorded it.
    expect(byVictim.length).toBeGreaterThanOrEqual(4);
    expect(bySurvivor.length).toBeGreaterThan(0);
    // Jobs the victim held when it died were found stalled and run again by the survivor.
    const stalled = done.filter((j) => j.stalledCounter > 0);
    expect(stalled.length).toBeGreaterThan(0);
    expect(stalled.every((j) => j.processedBy === nameOf(survivor))).toBe(true);
    // Its office processes and their bridges noticed it had gone, and ended.
    await waitUntil(
      () => processesNaming(officeOfVictim).length === 0,
      10_000,
      "the killed worker's office processes to end",
    );
    expect(await rendersInBucket()).toBe(FIRST + COUNT);
    expect(pdfsOnDisk()).toEqual([]);
  });
});
