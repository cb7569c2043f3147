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
 * What ends a convert request's wait early: its deadline, or its caller hanging up. Either
 * aborts the signal given to the queue client, which then withdraws the request's jobs that have
 * not started, so that an abandoned request does not keep office processes busy.
 */
export function convertSignal(
  reply: FastifyReply,
  timeoutMs: number,
): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ConvertTimeoutError(timeoutMs)), timeoutMs);
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new CallerGoneError());
  };
  reply.raw.on('close', onClose);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}
