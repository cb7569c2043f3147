import type { FastifyRequest } from 'fastify';
import type { FailureDetail } from '../../../base/errors/index.js';

/** Fastify's refusal of a body past the route's limit, which says only "Request body is too large". */
export function isBodyTooLarge(error: { code?: string }): boolean {
  return error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/**
 * What a body past the route's limit is told, naming the limit (`bodyLimit` of the route, else the
 * server's): every surface says it in its own shape. `remedy` is what the route's caller can do.
 */
export function bodyTooLargeDetail(
  request: FastifyRequest,
  remedy = 'send a smaller body',
): FailureDetail {
  return {
    field: 'body',
    message: `is larger than this endpoint's limit of ${request.routeOptions.bodyLimit} bytes; ${remedy}`,
  };
}
