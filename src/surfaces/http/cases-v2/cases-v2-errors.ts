import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, isDocpipeError, outageOf } from '../../../base/errors/index.js';
import { CprKeyMissingError } from '../../../service/cpr/index.js';
import { v2Error, v2Failure, type V2ErrorObject } from '../common/replies.js';
import { validationDetails } from '../common/validation-details.js';
import { convertErrorHandler } from '../convert/index.js';

/** A v2 error object that also says which v3 slug it is (7.1 lists `error` among its members). */
export type V2CaseError = V2ErrorObject & { error?: string };

/**
 * The v2 list envelope of a typed failure: every detail one error object (`description` names
 * the field: `documents[0].file: ...`), each with the failure's slug as `error`.
 */
export function v2CaseFailure(err: DocpipeError): { errors: V2CaseError[] } {
  return { errors: v2Failure(err).errors.map((e) => ({ ...e, error: err.slug })) };
}

/**
 * What the v2 case and form endpoints answer alike for an error that is not a typed failure:
 * - a `cpr` and no CPR key on this server (CprKeyMissingError): 503 in v2's list envelope, the
 *   operator's to fix; nothing was created;
 * - outages (with Retry-After), the body limit's 413 and Fastify's own refusals as v2 convert
 *   answers them;
 * - a failure inside docpipe: 7.1's `{message: 'Internal server error', errors: [...]}` naming
 *   the request id, logged with `what` failed.
 */
export function v2UntypedErrorHandler(retryAfterSeconds: number, what: string) {
  const others = convertErrorHandler(retryAfterSeconds);
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof CprKeyMissingError)
      return reply
        .code(503)
        .send({ message: 'Service Unavailable', errors: [v2Error(503, err.message)] });
    const status = err.statusCode;
    if (
      (typeof status === 'number' && status >= 400 && status < 500) ||
      outageOf(err) !== undefined
    )
      return others(err, request, reply);
    request.log.error({ err }, `${what} failed inside docpipe`);
    return reply.code(500).send({
      message: 'Internal server error',
      errors: [
        v2Error(
          500,
          `docpipe failed on its side; try again later, and if it persists give the operator request id ${request.id}`,
        ),
      ],
    });
  };
}

/**
 * Every failure of the v2 case endpoints in v2's shapes (spec 7.1):
 * - parameters (Fastify's schema): 400, each problem one error object, `validation-failed`;
 * - typed failures (the v2 check, the references, the pipeline): their status (4xx; 400 for
 *   `document-not-found`), every detail at its v2 path, with the v3 slug as `error`;
 * - everything else as v2UntypedErrorHandler answers it.
 */
export function casesV2ErrorHandler(retryAfterSeconds: number) {
  const untyped = v2UntypedErrorHandler(retryAfterSeconds, 'v2 case request');
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.validation) {
      const details = validationDetails(err.validation, err.validationContext ?? 'body');
      return reply.code(400).send(v2CaseFailure(new DocpipeError('validation-failed', details)));
    }
    if (isDocpipeError(err)) {
      // v2 has no document endpoints: a document not found is a body member's (a case
      // document's url naming no upload of the company), the request's mistake, 400 as spec
      // 4.2 lists for create and as v3's POST /cases answers it.
      if (err.slug !== 'document-not-found') return reply.code(err.status).send(v2CaseFailure(err));
      const { errors } = v2CaseFailure(err);
      return reply.code(400).send({ errors: errors.map((e) => ({ ...e, code: 400 })) });
    }
    return untyped(err, request, reply);
  };
}
