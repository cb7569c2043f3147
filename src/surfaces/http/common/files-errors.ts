import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  detailText,
  isDocpipeError,
  type FailureDetail,
  type FailureSlug,
} from '../../../base/errors/index.js';
import { answerOutage } from './outage-reply.js';
import { fileError } from './replies.js';
import { validationDetails } from './validation-details.js';

/** The limits a file route names when a request goes past them. */
export interface FileLimits {
  /** The largest request body of the route, in bytes. */
  bodyLimit: number;
}

/**
 * A file endpoint's refusal that no slug of the spec names: a document or a multipart part past
 * its limit (413), a body that is not the multipart it says (400), a media type no upload comes
 * in (415), a download's signature or expiry (403).
 */
export class FileRefusal extends Error {
  override readonly name = 'FileRefusal';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How a file endpoint's message begins for each typed failure it answers. */
const LEADS: Partial<Record<FailureSlug, string>> = {
  'validation-failed': 'the request is invalid',
  'unsupported-file-type': 'the file is neither a PDF nor a real .docx',
  'document-not-found': 'no such document',
};

/** Details as one sentence: the file endpoints answer `{message}` (spec 4.3), never a list. */
export function detailsMessage(lead: string, details: FailureDetail[]): string {
  const parts = details.map(detailText);
  return parts.length > 0 ? `${lead}: ${parts.join('; ')}` : lead;
}

/**
 * The file endpoints' error handler: every failure is `{message}` with the status that fits,
 * saying what happened and what to do. Validation lists every problem with its field; limits
 * name the limit; outages answer as the outage table says; anything unexpected is 500, logged,
 * with no stack in the answer.
 */
export function fileErrorHandler(limits: (request: FastifyRequest) => FileLimits) {
  return (error: FastifyError | FileRefusal, request: FastifyRequest, reply: FastifyReply) => {
    // An outage (the store, or the Redis the rate limit counts in): not the caller's mistake
    // nor a bug, so the table's status and Retry-After.
    const outage = answerOutage(error, request, reply, ({ message }) => fileError(message));
    if (outage) return outage;
    const [status, message] = classify(error, request, limits);
    if (status >= 500) request.log.error({ err: error }, 'file endpoint failed');
    return reply.code(status).send(fileError(message));
  };
}

function classify(
  error: FastifyError | FileRefusal,
  request: FastifyRequest,
  limits: (request: FastifyRequest) => FileLimits,
): [number, string] {
  if (error instanceof FileRefusal) return [error.status, error.message];
  if (error.validation)
    return [
      400,
      detailsMessage(
        'the request is invalid',
        validationDetails(error.validation, error.validationContext ?? 'body'),
      ),
    ];
  if (isDocpipeError(error))
    return [error.status, detailsMessage(LEADS[error.slug] ?? error.slug, error.details)];
  const limit = limits(request);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [
        413,
        `the request body is larger than this endpoint's limit of ${limit.bodyLimit} bytes; send a smaller document`,
      ];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // The upload route refuses other media types itself, naming both of its own.
      return [415, 'send the body as application/json'];
  }
  const status = error.statusCode ?? 500;
  // Fastify's own client errors (malformed JSON, an empty body) say what was wrong.
  if (status >= 400 && status < 500)
    return [status, `the request could not be read: ${error.message}`];
  return [500, 'Internal server error: the failure is logged with the request id; try again later'];
}
