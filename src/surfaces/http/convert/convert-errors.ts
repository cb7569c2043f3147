import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, detailText, isDocpipeError } from '../../../base/errors/index.js';
import { bodyTooLargeDetail, isBodyTooLarge } from '../common/body-limit.js';
import { answerOutage } from '../common/outage-reply.js';
import { v2Error, v2Errors, v2Failure } from '../common/replies.js';
import { validationDetails } from '../common/validation-details.js';

/** 7.1's message of each status an outage answers. */
const OUTAGE_MESSAGES: Record<number, string> = {
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/**
 * Every failure of the v2 convert endpoint in the v2 error list envelope (spec 7.1), each
 * problem one error object naming its field:
 * - the body's structure: 400 with every problem (`documents[0].name: is required`);
 * - typed failures (the request's sources, each document's sniff, fill and conversion): their
 *   registry status, with every detail (`documents[1].tags.start_date: ...`);
 * - outages (the queue or the document store not there, the company's line full, no answer in
 *   time, the caller gone): the status and Retry-After of the outage table (src/base/errors),
 *   not the caller's fault; `retryAfterSeconds` is this endpoint's wait for the queue's;
 * - a body past the limit: 413 naming the limit;
 * - Fastify's own refusals (not JSON, an empty body): their status and message;
 * - anything else: 500, logged with its stack, answered without it.
 */
export function convertErrorHandler(retryAfterSeconds: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const details = validationDetails(err.validation, err.validationContext ?? 'body');
      return reply.code(400).send(v2Failure(new DocpipeError('validation-failed', details)));
    }
    if (isDocpipeError(err)) return reply.code(err.status).send(v2Failure(err));
    const outage = answerOutage(
      err,
      request,
      reply,
      ({ status, message }) =>
        v2Errors({
          code: status,
          message: OUTAGE_MESSAGES[status] ?? 'Error',
          description: message,
        }),
      retryAfterSeconds,
    );
    if (outage) return outage;
    if (isBodyTooLarge(err))
      return reply
        .code(413)
        .send(
          v2Errors(
            v2Error(
              413,
              detailText(
                bodyTooLargeDetail(
                  request,
                  'send smaller documents, or upload large ones first and send their URLs',
                ),
              ),
            ),
          ),
        );
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
