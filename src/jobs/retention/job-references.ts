import { Job, Queue, type JobType } from 'bullmq';
import type { Redis } from 'ioredis';
import { queueNames } from '../queue/index.js';

/** Every state of a job that is not finished: its source may still be read. */
export const UNFINISHED_STATES: readonly JobType[] = [
  'wait',
  'paused',
  'prioritized',
  'delayed',
  'waiting-children',
  'active',
];

/** Jobs read at once: bounded, as a job's data may hold an inline document. */
const JOB_READ_BATCH = 200;

/** Redis keys SCAN looks at per round trip while finding the installation's queues. */
const SCAN_COUNT = 1000;

export interface JobReferences {
  /** Storage keys that unfinished jobs read their document from. */
  keys: Set<string>;
  /** Unfinished jobs seen. */
  jobs: number;
  /** The queues read. */
  queues: string[];
}

/**
 * The storage keys unfinished jobs still need (`source.storageKey` of the job contract), in
 * every queue of the installation. Each queue's unfinished job ids are read in one atomic step
 * (BullMQ's getRanges), so that a job moving from one state to another is never missed between
 * two reads. Redis errors reject: a caller that cannot tell what is needed must not remove it.
 */
export async function readJobReferences(redis: Redis, prefix: string): Promise<JobReferences> {
  const queues = await queuesOf(redis, prefix);
  const keys = new Set<string>();
  let jobs = 0;
  for (const name of queues) {
    const queue = new Queue(name, { connection: redis, prefix });
    queue.on('error', () => undefined);
    try {
      const ids = await queue.getRanges([...UNFINISHED_STATES], 0, -1, true);
      for (let at = 0; at < ids.length; at += JOB_READ_BATCH) {
        const batch = ids.slice(at, at + JOB_READ_BATCH);
        const read = await Promise.all(batch.map((id) => Job.fromId(queue, id)));
        for (const job of read) {
          // Gone since its id was read: it finished, and needs nothing any more.
          if (!job) continue;
          jobs++;
          const key = storageKeyOf(job.data);
          if (key) keys.add(key);
        }
      }
    } finally {
      await queue.close();
    }
  }
  return { keys, jobs, queues };
}

/** The document queue, and every other queue under the prefix (a queue per company, say). */
async function queuesOf(redis: Redis, prefix: string): Promise<string[]> {
  const found = new Set([queueNames(prefix).documents]);
  // BullMQ writes `<prefix>:<queue>:meta` when the first job is added; queue names hold no colon.
  const escaped = prefix.replace(/[*?[\]\\]/g, '\\$&');
  const meta = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:([^:]+):meta$`);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(
      cursor,
      'MATCH',
      `${escaped}:*:meta`,
      'COUNT',
      SCAN_COUNT,
    );
    for (const key of keys) {
      const name = meta.exec(key)?.[1];
      if (name) found.add(name);
    }
    cursor = next;
  } while (cursor !== '0');
  return [...found].sort();
}

function storageKeyOf(data: unknown): string | undefined {
  const source = (data as { source?: unknown } | null | undefined)?.source;
  const key = (source as { storageKey?: unknown } | null | undefined)?.storageKey;
  return typeof key === 'string' ? key : undefined;
}
