import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';

export interface HttpAppOptions {
  /** The largest request body; a larger one is answered 413. */
  bodyLimit: number;
  /** pino logger for request logs; without it, none. */
  logger?: FastifyBaseLogger;
}

/** The Fastify instance every docpipe route runs in, with TypeBox schemas as the types. */
export type HttpApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * A Fastify instance set up as every docpipe HTTP surface needs it, for the server and for
 * tests of one route group alike:
 * - Ajv keeps unknown members so that `additionalProperties: false` refuses them (the spec's v3
 *   guarantee 1) instead of dropping them silently, and reports every problem at once (guarantee
 *   2), not only the first;
 * - a request id from `X-Request-Id` when a caller sends a sane one, else a fresh UUID: it
 *   travels into the job and the worker's log lines;
 * - the body limit.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  return Fastify({
    bodyLimit: options.bodyLimit,
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
}
