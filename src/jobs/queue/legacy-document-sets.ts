import { Queue, Worker, type Job, type JobType, type WorkerOptions } from 'bullmq';
import type { Logger } from '../../base/log/index.js';

/**
 * The states in which a job of the legacy queue still needs a worker: a set's parent waits for
 * its documents (`waiting-children`), then to be answered.
 */
const UNFINISHED: JobType[] = [
  'active',
  'waiting',
  'waiting-children',
  'delayed',
  'prioritized',
  'paused',
];

/**
 * Takes the document sets an earlier docpipe left in its `cases` queue (the queue's name before
 * the rename to `document-sets`), so that an upgrade loses none: their documents are in the
 * `documents` queue as ever, and their parents are answered here, as the old version would have,
 * to producers that still wait for them. Nothing adds to that queue any more, so a worker looks
 * once at start-up and watches it only until it is drained.
 *
 * Resolves to the worker taking them, or undefined when nothing was left; `drained` settles
 * when no job is left (at once when there was none).
 */
export async function takeLegacyDocumentSets(
  name: string,
  options: WorkerOptions,
  process: (job: Job) => Promise<unknown>,
  logger: Logger,
): Promise<{ worker: Worker | undefined; drained: Promise<void> }> {
  const queue = new Queue(name, { connection: options.connection, prefix: options.prefix });
  queue.on('error', () => undefined);
  const left = async () => total(await queue.getJobCounts(...UNFINISHED));
  let waiting: number;
  try {
    waiting = await left();
  } catch (err) {
    await queue.close();
    throw err;
  }
  if (waiting === 0) {
    await queue.close();
    return { worker: undefined, drained: Promise.resolve() };
  }
  logger.info(
    { queue: name, jobs: waiting },
    `taking the document sets an earlier version left in the "${name}" queue`,
  );
  const worker = new Worker(name, process, options);
  worker.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
  const drained = new Promise<void>((resolve) => {
    worker.on('closed', () => {
      void queue.close().catch(() => undefined);
      resolve();
    });
  });
  // 'drained' fires once when the worker finds nothing to take, which may be while its last
  // jobs still run; each end of a job is looked at too. One look at a time, and one more after
  // it when a job ended meanwhile, so the last end is always looked at.
  let looking: Promise<void> | undefined;
  let again = false;
  const look = async (): Promise<void> => {
    do {
      again = false;
      const count = await left().catch(() => undefined);
      // Unknown (Redis away for a moment): the next job's end looks again.
      if (count === 0 && !worker.closing) {
        logger.info({ queue: name }, `the "${name}" queue is drained; no longer watching it`);
        await worker.close();
        return;
      }
    } while (again);
  };
  const check = () => {
    if (looking) {
      again = true;
      return;
    }
    looking = look().finally(() => (looking = undefined));
  };
  for (const event of ['drained', 'completed', 'failed'] as const) worker.on(event, check);
  await worker.waitUntilReady();
  return { worker, drained };
}

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
