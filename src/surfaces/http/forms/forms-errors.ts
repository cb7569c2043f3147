import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDocpipeError, outageOf, type DocpipeError } from '../../../base/errors/index.js';
import { answerCprKeyMissing } from '../cases-v2/index.js';
import { v2Error, v2Failure, type V2ErrorObject } from '../common/replies.js';
import { convertErrorHandler } from '../convert/index.js';

/** 7.1's answer for a form id that is blank (spec 4.1, form submit). */
export const NO_ID_PROVIDED = { message: 'Bad request', errors: ['No ID provided'] };

/** 7.1's company-style object for a form that is absent, inactive or another company's. */
export const FORM_NOT_FOUND = v2Error(400, 'Form not found');

/**
 * A typed failure as the error list envelope, every detail one error object whose description
 * names its field (`recipients[1].cpr: is required when needsCpr is true`), the slug as `error`.
 */
export function v2FormFailure(err: DocpipeError): {
  message: string;
  errors: (V2ErrorObject & { error: string })[];
} {
  return {
    message: err.status === 400 ? 'Bad request' : 'Error',
    errors: v2Failure(err).errors.map((e) => ({ ...e, error: err.slug })),
  };
}

/**
 * Every failure of the form endpoints in v2's shapes (spec 7.1):
 * - `form-not-found` (absent, inactive, or another company's: the same words): 400
 *   `{code: 400, message: 'Bad Request', description: 'Form not found'}`;
 * - other typed failures (the submit's checks, v2's create path, the pipeline): their status,
 *   `{message: 'Bad request', errors: [...]}` with every problem at its path;
 * - no CPR key (CprKeyMissingError): 503, the operator's to fix, nothing created;
 * - outages, Fastify's own refusals and the body limit as v2 convert answers them;
 * - a failure inside docpipe: 500 `{message: 'Internal server error', errors: [...]}`.
 */
export function formsErrorHandler(retryAfterSeconds: number) {
  const others = convertErrorHandler(retryAfterSeconds);
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isDocpipeError(err)) {
      if (err.slug === 'form-not-found') return reply.code(400).send(FORM_NOT_FOUND);
      return reply.code(err.status).send(v2FormFailure(err));
    }
    const keyMissing = answerCprKeyMissing(err, reply);
    if (keyMissing) return keyMissing;
    const status = err.statusCode;
    if (
      (typeof status === 'number' && status >= 400 && status < 500) ||
      outageOf(err) !== undefined
    )
      return others(err, request, reply);
    request.log.error({ err }, 'form request failed inside docpipe');
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
