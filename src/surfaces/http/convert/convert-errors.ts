import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, isDocpipeError } from '../../../base/errors/index.js';
import { isCompanyQueueFullError } from '../../../jobs/queue/index.js';
import {
  isQueueUnavailableError,
  type QueueUnavailableError,
} from '../../../platform/redis/index.js';
import { CallerGoneError, ConvertTimeoutError } from './convert-deadline.js';
import { v2Error, v2Errors, v2Failure, type V2ErrorObject } from '../common/replies.js';
import { validationDetails } from '../common/validation-details.js';
import { STORAGE_RETRY_AFTER_S, STORAGE_UNAVAILABLE } from '../common/files-errors.js';
import { isStorageUnavailableError } from '../../../render/storage/index.js';

/**
 * Every failure of the v2 convert endpoint in the v2 error list envelope (spec 7.1), each
 * problem one error object naming its field:
 * - the body's structure: 400 with every problem (`documents[0].name: is required`);
 * - typed failures (the request's sources, each document's sniff, fill and conversion): their
 *   registry status, with every detail (`documents[1].tags.start_date: ...`);
 * - the queue not there (no Redis, no worker) or too busy to answer in time: 503 with
 *   Retry-After, as the outage it is, not the caller's fault;
 * - the document store not there (S3 down, credentials refused): 503 with Retry-After;
 * - the company's line full (DOCPIPE_COMPANY_MAX_QUEUED): 429 with Retry-After, nothing queued;
 * - Fastify's own refusals (not JSON, over the body limit): their status and message;
 * - anything else: 500, logged with its stack, answered without it.
 */
export function convertErrorHandler(retryAfterSeconds: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const details = validationDetails(err.validation, err.validationContext ?? 'body');
      return reply.code(400).send(v2Failure(new DocpipeError('validation-failed', details)));
    }
    if (isDocpipeError(err)) return reply.code(err.status).send(v2Failure(err));
    if (isQueueUnavailableError(err) || err instanceof ConvertTimeoutError) {
      request.log.warn({ err: err.message }, 'convert: queue unavailable');
      return reply
        .code(503)
        .header('Retry-After', String(retryAfterSeconds))
        .send(v2Errors(unavailable(callerMessage(err))));
    }
    if (isCompanyQueueFullError(err)) {
      request.log.warn(
        { company: err.company, queued: err.queued, cap: err.cap },
        'convert: company queue full',
      );
      return reply
        .code(429)
        .header('Retry-After', String(err.retryAfterSeconds))
        .send(
          v2Errors({
            code: 429,
            message: 'Too Many Requests',
            description: `your company may have at most ${err.cap} documents waiting to be converted; it has ${err.queued}, and this request's ${err.asked} would pass that, so none of them was queued. Send it again in ${err.retryAfterSeconds} s, or in smaller requests.`,
          }),
        );
    }
    if (isStorageUnavailableError(err)) {
      request.log.warn({ err: err.message }, 'convert: storage unavailable');
      return reply
        .code(503)
        .header('Retry-After', String(STORAGE_RETRY_AFTER_S))
        .send(v2Errors(unavailable(STORAGE_UNAVAILABLE)));
    }
    if (err instanceof CallerGoneError) {
      request.log.info('convert: the caller left before the answer; its waiting jobs withdrawn');
      return reply.code(503).send(v2Errors(unavailable(err.message)));
    }
    const status = err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return reply.code(status).send(v2Errors(v2Error(status, err.message)));
    request.log.error({ err }, 'convert failed inside docpipe');
    return reply
      .code(500)
      .send(
        v2Errors(
          v2Error(
            500,
            `docpipe failed on its side; try again later, and if it persists give the operator request id ${request.id}`,
          ),
        ),
      );
  };
}

/** The queue's own message names its Redis URL: for the log, not for an API caller. */
function callerMessage(err: QueueUnavailableError | ConvertTimeoutError): string {
  if (err instanceof ConvertTimeoutError) return err.message;
  return err.reason === 'no-worker'
    ? 'no docpipe worker is converting documents right now; send the request again later'
    : "docpipe's queue does not answer; send the request again later";
}

function unavailable(description: string): V2ErrorObject {
  return { code: 503, message: 'Service Unavailable', description };
}
