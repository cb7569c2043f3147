import type { Job } from 'bullmq';
import { NO_COMPANY, type FairShare } from './fair-share.js';
import { isCompanyId } from '../../base/tenancy/index.js';

/** The turn of a job that holds no lease: nothing to hand on. */
const NO_TURN: Turn = { end: () => Promise.resolve() };

/** How often a job waiting for its company's turn asks again (jittered by half). */
const POLL_MS = 100;

/** The worker began to stop while the job waited for its turn: it goes back to the queue. */
export class NotStartedError extends Error {
  constructor() {
    super('the worker is stopping: the job goes back to the queue, not started');
  }
}

/** A job's turn to convert: renewed while it runs, handed on when it ends. */
export interface Turn {
  end(): Promise<void>;
}

/**
 * Takes a document job's turn: tells the fair scheduler the job started (the clock moves to its
 * place), then, when its company has a cap on jobs converting, waits until the company is under
 * it. The wait holds the job in this worker rather than handing it back, so that the company's
 * next jobs are not pulled and pushed back over and over; another company's job still goes
 * first to the next free slot, by its place. `stopped` ends the wait when the worker begins to
 * stop: the job has not started, and goes back to the queue.
 */
export async function takeTurn(
  fair: FairShare,
  job: Job,
  leaseMs: number,
  stopped: () => boolean,
): Promise<Turn> {
  const place = job.priority ?? 0;
  // A job with no place (a producer without fair sharing) moves no clock and, with no cap on jobs
  // in flight, needs no lease: no round trip to Redis on the way to its conversion.
  if (place === 0 && fair.limits.maxActive === 0) return NO_TURN;
  const company = companyOf(job);
  const id = job.id!;
  while (!(await fair.take(company, id, place, leaseMs))) {
    if (stopped()) throw new NotStartedError();
    await new Promise((r) => setTimeout(r, POLL_MS * (0.5 + Math.random())));
  }
  if (fair.limits.maxActive === 0) return NO_TURN;
  // The lease outlives a dead worker by at most leaseMs; a live one renews it well before.
  const renew = setInterval(() => {
    void fair.take(company, id, place, leaseMs).catch(() => undefined);
  }, leaseMs / 3);
  renew.unref();
  return {
    async end() {
      clearInterval(renew);
      await fair.release(company, id).catch(() => undefined);
    },
  };
}

/** The job's company line; data that is not a company id (a worker checks it after) is none. */
function companyOf(job: Job): string {
  const company: unknown = (job.data as { company?: unknown } | undefined)?.company;
  return isCompanyId(company) ? company : NO_COMPANY;
}
