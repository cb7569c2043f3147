import type { FastifyReply, FastifyRequest } from 'fastify';
import { detailText, type FailureDetail } from '../../../base/errors/index.js';
import { fileError, v2Error } from './replies.js';

/**
 * The error shape a URL's surface answers (spec section 7 and 4.3):
 * - `v2`: the error list envelope, on the v2 API (`/api/v2/...`, spec section 9);
 * - `v3`: `{error, details}`, on the v3 API (`/v3/api/...`, and any other `/v3/` path but the
 *   file endpoints);
 * - `message`: `{message}`, on the file endpoints (`/v3/company/{company}/file/...`, spec 4.3), the
 *   downloads (`/files/...`), the operator's routes and anything else.
 */
export type ErrorShape = 'v2' | 'v3' | 'message';

/**
 * The shape of the surface `url` belongs to, from its path alone: for the answers the framework
 * gives before any route runs (a URL it cannot decode, no route at all), where no surface's own
 * error handler is there to pick. A route added later under one of these prefixes answers its
 * framework errors in its API's shape without doing anything.
 */
export function shapeOfUrl(url: string): ErrorShape {
  const path = url.split('?', 1)[0]!;
  if (path.startsWith('/api/v2/')) return 'v2';
  if (/^\/v3\/company\/[^/]*\/file(\/|$)/.test(path)) return 'message';
  if (path === '/v3' || path.startsWith('/v3/')) return 'v3';
  return 'message';
}

/** A refusal of the request, as every shape can say it. */
export interface Refusal {
  status: number;
  /** The v3 slug: a spec slug (src/base/errors), or one of docpipe's own beside them. */
  slug: string;
  /** What was wrong, naming the part of the request (v3's details; empty when nothing was). */
  details: FailureDetail[];
  /** What happened and what to do, for the v2 and `{message}` shapes when `details` is empty. */
  summary?: string;
}

/** `refusal`'s body in `shape`. */
export function refusalBody(shape: ErrorShape, refusal: Refusal): unknown {
  const { status, slug, details } = refusal;
  const lines = details.length > 0 ? details.map(detailText) : [refusal.summary ?? slug];
  switch (shape) {
    case 'v3':
      return { error: slug, details };
    case 'v2':
      return { errors: lines.map((line) => v2Error(status, line)) };
    case 'message':
      return fileError(lines.join('; '));
  }
}

/** Answers `refusal` in the shape of the request's surface. */
export function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
): FastifyReply {
  return reply.code(refusal.status).send(refusalBody(shapeOfUrl(request.url), refusal));
}

/** The request's mistake: v3's `validation-failed`, at 400 or the status Fastify gave it. */
export function invalid(details: FailureDetail[], status = 400): Refusal {
  return { status, slug: 'validation-failed', details };
}
