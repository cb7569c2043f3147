import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDocpipeError, type DocpipeError } from '../../../base/errors/index.js';
import { v2UntypedErrorHandler } from '../cases-v2/index.js';
import { v2Error, v2Failure, type V2ErrorObject } from '../common/replies.js';

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
 * - everything else (no CPR key: 503; outages; Fastify's refusals; a failure inside docpipe:
 *   500) as v2UntypedErrorHandler answers it.
 */
export function formsErrorHandler(retryAfterSeconds: number) {
  const untyped = v2UntypedErrorHandler(retryAfterSeconds, 'form request');
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isDocpipeError(err)) {
      if (err.slug === 'form-not-found') return reply.code(400).send(FORM_NOT_FOUND);
      return reply.code(err.status).send(v2FormFailure(err));
    }
    return untyped(err, request, reply);
  };
}
