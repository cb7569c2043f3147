import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INTERNAL_ERROR, isDocpipeError } from '../../../base/errors/index.js';
import { bodyTooLargeDetail, isBodyTooLarge } from './body-limit.js';
import { answerOutage } from './outage-reply.js';
import { refuseRepeatedAuthorization } from './repeated-authorization.js';
import { fileError, v2Error, v2Errors } from './replies.js';
import { answer, invalid, shapeOfUrl, type ErrorShape } from './url-surface.js';
import { validationDetails } from './validation-details.js';

/**
 * The answers Fastify gives itself, before or around any route (a URL it cannot decode, a path
 * value past the router's limit, no route at all, an error no surface's handler catches), in the
 * shape of the surface the URL belongs to (url-surface.ts): `{error, details}` on v3, the error
 * list on v2, `{message}` on the file endpoints, downloads and operator routes. Registered once at
 * the server's root, so every route, a surface added later included, gets them.
 */

/**
 * The longest path value the router takes; a longer one is refused before any route runs. The
 * longest id a route's schema allows (a library document id, 200 characters), so that the schema,
 * not the router, speaks for every id a route could take.
 */
export const MAX_PATH_VALUE_LENGTH = 200;

/**
 * docpipe's v3 slug for a path no route serves. Spec 7.2's 404 slugs each name a missing
 * resource (`document-not-found`); a missing route is none of them, so this one is docpipe's
 * own, beside `rate-limited` and `internal-error`.
 */
export const ROUTE_NOT_FOUND = 'route-not-found';

/** The first characters of a path, for a message: a hostile one may be thousands long. */
function shown(url: string): string {
  const path = url.split('?', 1)[0]!;
  return path.length > 80 ? `${path.slice(0, 80)}...` : path;
}

/**
 * Fastify's `frameworkErrors` option: the router's refusals, before any hook or route.
 * - A URL whose percent-encoding is not UTF-8 (`/files/%ff%fe`): 400, as the request's mistake.
 * - A path value longer than MAX_PATH_VALUE_LENGTH (a 10,000-character document id): 400, not
 *   Fastify's 414. The URI is not too long for the server, which read it whole; one value in it
 *   is invalid, as a too-long value in a body is, and 400 is the status of v3's
 *   `validation-failed` (spec 7.2 has no 414).
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return answer(
        request,
        reply,
        invalid([
          {
            field: 'path',
            message:
              'is not a valid URL: every % must begin a percent-encoded UTF-8 character (%C3%A9 for é); send the URL as it was given',
          },
        ]),
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return answer(
        request,
        reply,
        invalid([
          {
            field: 'path',
            message: `a value in the path is longer than ${MAX_PATH_VALUE_LENGTH} characters, longer than any id docpipe gives; send the id as it was given`,
          },
        ]),
      );
    default:
      return rootErrorHandler(error, request, reply);
  }
}

/** The root's not-found handler: 404 for a method and path no route serves. */
export function answerNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return answer(request, reply, {
    status: 404,
    slug: ROUTE_NOT_FOUND,
    details: [
      {
        field: 'path',
        message: `no route answers ${request.method} ${shown(request.url)}; /openapi.json lists every route`,
      },
    ],
  });
}

/**
 * The root's error handler: what no surface's own handler catches (a body on a path no route
 * serves, an error in a hook of the root or of a route group with no handler, such as the queue
 * dashboard's): an outage as the outage table says, the request's mistakes with their status, and
 * anything else 500, logged, without its text or stack, with the request id to find it.
 */
export function rootErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const shape = shapeOfUrl(request.url);
  const outage = answerOutage(error, request, reply, (o) => outageBody(shape, o));
  if (outage) return outage;
  if (error.validation)
    return answer(
      request,
      reply,
      invalid(validationDetails(error.validation, error.validationContext ?? 'body')),
    );
  if (isDocpipeError(error))
    return answer(request, reply, {
      status: error.status,
      slug: error.slug,
      details: error.details,
    });
  if (isBodyTooLarge(error))
    return answer(request, reply, invalid([bodyTooLargeDetail(request)], 413));
  const status = error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return answer(request, reply, invalid([{ field: 'request', message: error.message }], status));
  request.log.error({ err: error }, 'request failed inside docpipe');
  void reply.header('X-Request-Id', request.id);
  const summary = `docpipe failed on its side; try again later, and if it persists give the operator request id ${request.id}`;
  return answer(request, reply, { status: 500, slug: INTERNAL_ERROR, details: [], summary });
}

/** An outage's body in each shape, as the surfaces' own handlers answer it. */
function outageBody(
  shape: ErrorShape,
  outage: { kind: string; status: number; message: string },
): unknown {
  switch (shape) {
    case 'v3':
      // Nothing in the request is wrong: no details (as the v3 library answers it).
      return { error: outage.kind, details: [] };
    case 'v2':
      return v2Errors(v2Error(outage.status, outage.message));
    case 'message':
      return fileError(outage.message);
  }
}

/**
 * Puts the framework's answers at `app`'s root, before any surface registers (a hook added to the
 * root later would run after the route groups' own, authentication among them): the not-found
 * handler, the root error handler, and the refusal of a repeated `Authorization` header. The
 * router's refusals are the `frameworkErrors` option of createHttpApp.
 */
export function registerFrameworkAnswers(app: FastifyInstance): void {
  app.setNotFoundHandler(answerNotFound);
  app.setErrorHandler(rootErrorHandler);
  app.addHook('onRequest', refuseRepeatedAuthorization);
}
