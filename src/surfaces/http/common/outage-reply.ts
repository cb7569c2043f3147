import type { FastifyReply, FastifyRequest } from 'fastify';
import { OUTAGES, outageOf, type OutageKind } from '../../../base/errors/index.js';
import { isCompanyQueueFullError } from '../../../jobs/queue/index.js';
import { isQueueUnavailableError } from '../../../platform/redis/index.js';

/** For an API caller: the store's bucket and endpoint are for the operator's log. */
export const STORAGE_UNAVAILABLE =
  "docpipe's document store is not available right now; send the request again later";

/** An outage as a surface answers it: the table's status and the words for the caller. */
export interface OutageAnswer {
  kind: OutageKind;
  status: number;
  /** What happened and what to do, without Redis URLs, buckets or endpoints. */
  message: string;
}

/**
 * Answers an outage (see OUTAGES in src/base/errors) with the table's status and `Retry-After`,
 * the body in the surface's own shape from `body`, and a log line for the operator (the full
 * message there, with what the caller is not told). Returns undefined for any other error, which
 * the surface's handler goes on with.
 *
 * `retryAfterSeconds` is the surface's own setting for the queue's outages (convert's), when it
 * has one.
 */
export function answerOutage(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  body: (answer: OutageAnswer) => unknown,
  retryAfterSeconds?: number,
): FastifyReply | undefined {
  const kind = outageOf(err);
  if (kind === undefined) return undefined;
  const spec = OUTAGES[kind];
  const message = callerMessage(kind, err as Error);
  if (kind === 'caller-gone')
    request.log.info('the caller left before the answer; its waiting jobs withdrawn');
  else request.log.warn({ err: (err as Error).message, outage: kind }, `outage: ${kind}`);
  const queues = kind === 'queue-unavailable' || kind === 'deadline';
  const wait =
    queues && retryAfterSeconds !== undefined ? retryAfterSeconds : spec.retryAfterSeconds;
  // A stopping server takes no more requests on this connection: the caller opens a new one.
  if (kind === 'stopping') void reply.header('Connection', 'close');
  return reply
    .code(spec.status)
    .header('Retry-After', String(wait))
    .send(body({ kind, status: spec.status, message }));
}

/** The queue's and the store's own messages name Redis URLs and buckets: for the log only. */
function callerMessage(kind: OutageKind, err: Error): string {
  switch (kind) {
    case 'queue-unavailable':
      return isQueueUnavailableError(err) && err.reason === 'no-worker'
        ? 'no docpipe worker is converting documents right now; send the request again later'
        : "docpipe's queue does not answer; send the request again later";
    case 'database-unavailable':
      return "docpipe's database does not answer; send the request again later";
    case 'storage-unavailable':
      return STORAGE_UNAVAILABLE;
    case 'company-queue-full':
      return isCompanyQueueFullError(err)
        ? `your company may have at most ${err.cap} documents waiting to be converted; it has ${err.queued}, and this request's ${err.asked} would pass that, so none of them was queued. Send it again in ${err.retryAfterSeconds} s, or in smaller requests.`
        : err.message;
    case 'eid-broker-unavailable':
      // The broker's name and issuer are the operator's to read in the log.
      return 'the eID service does not answer right now; try again in a few minutes';
    case 'deadline':
    case 'caller-gone':
    case 'stopping':
      // Their own messages are written for the caller.
      return err.message;
  }
}
