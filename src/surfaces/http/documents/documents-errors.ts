import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, INTERNAL_ERROR, isDocpipeError } from '../../../base/errors/index.js';
import { bodyTooLargeDetail, isBodyTooLarge } from '../common/body-limit.js';
import { answerOutage } from '../common/outage-reply.js';
import { v3Failure } from '../common/replies.js';
import { validationDetails } from '../common/validation-details.js';

/**
 * A library document that cannot be read as a template (a broken .docx the operator put in the
 * library). Its typed failure says what is wrong, but the caller asked nothing wrong: it is the
 * service's failure (500), and `docpipe check` on the library finds it.
 */
export class BrokenLibraryDocumentError extends Error {
  override readonly name = 'BrokenLibraryDocumentError';

  constructor(readonly failure: DocpipeError) {
    super(failure.message, { cause: failure });
  }
}

/**
 * Every failure of the v3 library endpoints in the v3 envelope (spec 7.2): a refused query
 * parameter or path value is `validation-failed` with every problem, the parameter's name as
 * its field; typed failures by their slug and status; an outage by its kind, with the status and
 * Retry-After of the outage table; a broken library document and anything else 500, logged,
 * without a stack, with the request id in `X-Request-Id` for the operator.
 */
export function documentsErrorHandler(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (err.validation) {
    const details = validationDetails(err.validation, err.validationContext ?? 'querystring');
    return reply.code(400).send(v3Failure(new DocpipeError('validation-failed', details)));
  }
  if (isDocpipeError(err)) return reply.code(err.status).send(v3Failure(err));
  if (isBodyTooLarge(err))
    return reply
      .code(413)
      .send(v3Failure(new DocpipeError('validation-failed', [bodyTooLargeDetail(request)])));
  // Fastify's own refusals of a request (a body these GETs do not take, bad JSON): the request's.
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    const refused = new DocpipeError('validation-failed', [
      { field: 'request', message: err.message },
    ]);
    return reply.code(err.statusCode).send(v3Failure(refused));
  }
  // An outage (the Redis the rate limit counts in): its slug, the table's status and Retry-After;
  // nothing in the request is wrong, so no details (as 429's rate-limited).
  const outage = answerOutage(err, request, reply, ({ kind }) => ({ error: kind, details: [] }));
  if (outage) return outage;
  reply.header('X-Request-Id', request.id);
  if (err instanceof BrokenLibraryDocumentError) {
    request.log.error({ err: err.message }, 'library document cannot be read as a template');
    return reply.code(500).send(v3Failure(err.failure));
  }
  request.log.error({ err }, 'library request failed inside docpipe');
  return reply.code(500).send({ error: INTERNAL_ERROR });
}
