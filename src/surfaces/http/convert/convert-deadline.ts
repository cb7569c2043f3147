import type { FastifyReply } from 'fastify';
import type { Outage } from '../../../base/errors/index.js';

/** The convert request waited its whole time without an answer from the queue. */
export class ConvertTimeoutError extends Error implements Outage {
  override readonly name = 'ConvertTimeoutError';
  readonly outage = 'deadline';

  constructor(readonly timeoutMs: number) {
    super(
      `no answer within ${timeoutMs / 1000} s: the queue is busier than its workers can take; nothing was kept, send the request again later`,
    );
  }
}

/** The caller hung up before the answer: nobody is left to read it. */
export class CallerGoneError extends Error implements Outage {
  override readonly name = 'CallerGoneError';
  readonly outage = 'caller-gone';

  constructor() {
    super('the caller closed the connection before the answer');
  }
}

/**
 * What ends a convert request's wait early: its deadline, its caller hanging up, or the server's
 * stop cutting it short (`stop`, aborted with ServiceStoppingError). Each aborts the signal given
 * to the queue client, which then withdraws the request's jobs that have not started, so that an
 * abandoned request does not keep office processes busy. `deadline` is when the wait ends at the
 * latest (epoch ms): the jobs carry it, so that a worker that takes one later skips it.
 */
export function convertSignal(
  reply: FastifyReply,
  timeoutMs: number,
  stop?: AbortSignal,
): { signal: AbortSignal; deadline: number; done: () => void } {
  const controller = new AbortController();
  const deadline = Date.now() + timeoutMs;
  const onStop = () => controller.abort(stop?.reason);
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  const timer = setTimeout(() => controller.abort(new ConvertTimeoutError(timeoutMs)), timeoutMs);
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new CallerGoneError());
  };
  reply.raw.on('close', onClose);
  return {
    signal: controller.signal,
    deadline,
    done: () => {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
      stop?.removeEventListener('abort', onStop);
    },
  };
}
