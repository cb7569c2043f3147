import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobEnd } from './job-end.js';

/**
 * The one place docpipe reads BullMQ's Redis layout itself rather than through its API: a job is
 * a hash at `queue.toKey(id)`, with these fields. A waiter reads the ends of hundreds of jobs in
 * one round trip with HMGET; BullMQ's public reads (Job.fromId) fetch whole hashes, with each
 * job's data (inline documents of up to the contract's limit), one job per command. The layout
 * is BullMQ's to change, so package.json pins bullmq exactly, a test pins this version and what
 * it stores, and every worker and client checks it at start-up ({@link checkJobHashLayout}).
 */
export const BULLMQ_VERSION = '5.81.5';

/** Fields read from a job's hash; `name` is set on every job, so without it the job is gone. */
const FIELDS = ['finishedOn', 'returnvalue', 'failedReason', 'name'] as const;

/** The bullmq package in node_modules, which may not be the one this layout was read from. */
export function installedBullmqVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('bullmq/package.json') as { version: string }).version;
}

/** The part of a Redis client this read needs (a test hands in a fake). */
export type PipelineRedis = Pick<Redis, 'pipeline'>;

/**
 * How each job ended, read in one round trip: `undefined` while it runs or waits (or when its
 * reply was an error: a later read tells).
 */
export async function readJobEnds(
  redis: PipelineRedis,
  jobKeys: string[],
): Promise<(JobEnd | undefined)[]> {
  const pipeline = redis.pipeline();
  for (const key of jobKeys) pipeline.hmget(key, ...FIELDS);
  const replies = (await pipeline.exec()) ?? [];
  return jobKeys.map((_, i) => {
    const [err, fields] = replies[i] ?? [new Error('no reply'), null];
    if (err || !Array.isArray(fields)) return undefined;
    return storedEnd(fields as (string | null)[]);
  });
}

function storedEnd([finishedOn, returnvalue, failedReason, name]: (string | null)[]):
  JobEnd | undefined {
  if (name === null || name === undefined) return { ok: false, gone: true };
  if (finishedOn === null || finishedOn === undefined) return undefined;
  // A job that failed an attempt and then completed keeps its last failedReason: the return
  // value decides.
  if (returnvalue !== null && returnvalue !== undefined)
    return { ok: true, value: parseJson(returnvalue) };
  return { ok: false, reason: failedReason ?? 'no reason given' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The installed BullMQ stores jobs otherwise than docpipe reads them. */
export class BullmqLayoutError extends Error {
  override readonly name = 'BullmqLayoutError';
}

/** How long the check may take before it counts as Redis not answering. */
const CHECK_DEADLINE_MS = 10_000;

/** Once per process: the layout belongs to the installed bullmq, not to one Redis. */
let checked = false;

/**
 * Writes three jobs through BullMQ's API on a queue of its own under `prefix` (one completed,
 * one failed, one waiting), reads them back through {@link readJobEnds}, and removes the queue.
 * Throws BullmqLayoutError, naming the versions, when what it reads is not what BullMQ stored.
 */
export async function checkJobHashLayout(
  redisUrl: string,
  prefix: string,
  /** How the hashes are read: a test hands in a reader that gets them wrong. */
  read: typeof readJobEnds = readJobEnds,
): Promise<void> {
  if (checked && read === readJobEnds) return;
  // BullMQ's worker wants a connection that retries for ever; the deadline bounds it here.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  const name = `layout-check-${randomUUID()}`;
  const queue = new Queue(name, { connection, prefix });
  const worker = new Worker(name, undefined, { connection, prefix, autorun: false });
  queue.on('error', () => undefined);
  worker.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  let answered = false;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer BullMQ's layout check in time`)),
        CHECK_DEADLINE_MS,
      );
    });
    const problems = await Promise.race([probe(connection, queue, worker, read), deadline]);
    answered = true;
    if (problems.length > 0)
      throw new BullmqLayoutError(
        `docpipe reads BullMQ's job hashes as bullmq ${BULLMQ_VERSION} stores them, but bullmq ` +
          `${installedBullmqVersion()} (installed) stores them otherwise: ${problems.join('; ')}. ` +
          `Install bullmq ${BULLMQ_VERSION} (npm ci), or update src/jobs/queue/bullmq-job-hash.ts for the new version.`,
      );
    checked = read === readJobEnds;
  } finally {
    clearTimeout(timer);
    // A Redis that did not answer would hold these calls for ever: then only let go.
    if (answered) await queue.obliterate({ force: true }).catch(() => undefined);
    connection.disconnect();
    await Promise.all([worker.close(true), queue.close()]).catch(() => undefined);
  }
}

/** What reading back three jobs found wrong, in words; none when the layout is as expected. */
async function probe(
  redis: Redis,
  queue: Queue,
  worker: Worker,
  read: typeof readJobEnds,
): Promise<string[]> {
  const token = randomUUID();
  // Not "completed" or "failed": a job's key would be the queue's own list of those.
  const ids = ['check-completed', 'check-failed', 'check-waiting', 'check-never-added'];
  for (const id of ids.slice(0, 3)) await queue.add('check', {}, { jobId: id });
  const completing = await worker.getNextJob(token, { block: false });
  await completing?.moveToCompleted({ checked: true }, token, false);
  const failing = await worker.getNextJob(token, { block: false });
  await failing?.moveToFailed(new Error('checked'), token, false);
  if (completing?.id !== ids[0] || failing?.id !== ids[1])
    return ['the check could not take its own jobs in order'];
  const ends = await read(
    redis,
    ids.map((id) => queue.toKey(id)),
  );
  const expected: (JobEnd | undefined)[] = [
    { ok: true, value: { checked: true } },
    { ok: false, reason: 'checked' },
    undefined,
    { ok: false, gone: true },
  ];
  return ids.flatMap((id, i) =>
    JSON.stringify(ends[i]) === JSON.stringify(expected[i])
      ? []
      : [`job "${id}" read as ${JSON.stringify(ends[i]) ?? 'running'}`],
  );
}
