import { detailText, type DocpipeError, type FailureDetail } from '../../../base/errors/index.js';

/**
 * The error bodies of the spec's two surfaces (section 7). v2 and its document endpoint answer
 * the error list envelope (7.1); v3 answers `{error, details}` (7.2); the file endpoints answer
 * `{message}` (4.3). A route picks its surface's shape here, so that no route invents one.
 */

/** One v2 error object (7.1). */
export interface V2ErrorObject {
  code: number;
  message: string;
  description: string;
}

/** The v2 error list envelope: `{errors: [{code, message, description}]}`. */
export function v2Errors(...errors: V2ErrorObject[]): { errors: V2ErrorObject[] } {
  return { errors };
}

/** 7.1's known messages by status, so that every v2 error reads as the spec's do. */
const V2_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal server error',
  503: 'Service Unavailable',
};

export function v2Error(code: number, description: string): V2ErrorObject {
  return { code, message: V2_MESSAGES[code] ?? 'Error', description };
}

/**
 * A typed failure on the v2 surface: every detail one error object, its description naming the
 * field, so that a caller sees every problem at once, each with its document and tag.
 */
export function v2Failure(err: DocpipeError): { errors: V2ErrorObject[] } {
  const details: FailureDetail[] =
    err.details.length > 0 ? err.details : [{ field: '', message: err.slug }];
  // Not spread into v2Errors: a list of a million arguments overflows the stack.
  return { errors: details.map((d) => v2Error(err.status, detailText(d))) };
}

/** A typed failure on the v3 surface: the spec's envelope, without docpipe's internal members. */
export function v3Failure(err: DocpipeError): { error: string; details: FailureDetail[] } {
  const { error, details } = err.toFailure();
  return { error, details };
}

/** The file endpoints' error body (4.3): one message that says what happened and what to do. */
export function fileError(message: string): { message: string } {
  return { message };
}
