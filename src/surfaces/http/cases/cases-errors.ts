import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDocpipeError } from '../../../base/errors/index.js';
import { v3Failure } from '../common/replies.js';
import { documentsErrorHandler } from '../documents/index.js';

/** The route whose body names library documents by `documentId`. */
export const CREATE_CASE_PATH = '/v3/api/cases';

/**
 * The v3 case endpoints' failures: those of the v3 library (documentsErrorHandler: validation,
 * typed failures, the body limit, outages, 500), with one difference spec 7.2 makes. A
 * `documentId` of a case body that is not in the library is the request's mistake about one of
 * its members, `document-not-found` with status 400 and `details` naming it, where the library's
 * own endpoints (POST /v3/api/documents/{id}/cases among them: the path names it) answer 404.
 */
export function casesErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (
    isDocpipeError(err) &&
    err.slug === 'document-not-found' &&
    request.routeOptions.url === CREATE_CASE_PATH
  )
    return reply.code(400).send(v3Failure(err));
  return documentsErrorHandler(err, request, reply);
}
