import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  DEFAULT_HTTP_CONNECTION_LIMITS,
  type HttpConnectionLimits,
} from '../../../app/config/index.js';
import { closeAfterEarlyAnswer } from './early-answer.js';
import { answerClientError } from './client-errors.js';
import { continueWhenBodyIsRead } from './expect-continue.js';
import { lingerOnClose } from './lingering-close.js';
import { trackCurrentRequests } from './socket-requests.js';
import { MAX_PATH_VALUE_LENGTH, answerFrameworkError } from './framework-errors.js';
import { parseJsonBodiesBounded } from './json-body.js';
import { withRedactedUrls } from './log-redaction.js';

export interface HttpAppOptions {
  /**
   * The largest request body of a route that sets no `bodyLimit` of its own; a larger one is
   * answered 413. The server gives SMALL_BODY_LIMIT_BYTES: routes that take documents set theirs.
   */
  bodyLimit: number;
  /** pino logger for request logs; without it, none. */
  logger?: FastifyBaseLogger;
  /** The time a caller may take and the connections open at once. @defaultValue DEFAULT_HTTP_CONNECTION_LIMITS */
  connections?: HttpConnectionLimits;
  /** No traffic either way on a socket for this long closes it. @defaultValue IDLE_SOCKET_TIMEOUT_MS */
  idleSocketTimeoutMs?: number;
  /**
   * The proxies whose `X-Forwarded-For` names the client (config.http.trustedProxies): a
   * request's `ip` is then the client's, for rate limits, miss counts and the audit trail.
   * @defaultValue none: `ip` is the connection's address and the header is ignored
   */
  trustedProxies?: string[];
}

/**
 * How often Node looks for requests past their time (its default is 30 s, so a 2 s timeout
 * closed a slow client only after up to 32 s): a slow client is closed within its timeout plus
 * this. A pass over the open connections a second costs nothing at DOCPIPE_HTTP_MAX_CONNECTIONS.
 */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/** The Fastify instance every docpipe route runs in, with TypeBox schemas as the types. */
export type HttpApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** No traffic either way on a socket for this long closes it (a stalled download reader). */
export const IDLE_SOCKET_TIMEOUT_MS = 120_000;

/**
 * A Fastify instance set up as every docpipe HTTP surface needs it, for the server and for
 * tests of one route group alike:
 * - Ajv keeps unknown members so that `additionalProperties: false` refuses them (the spec's v3
 *   guarantee 1) instead of dropping them silently, and reports every problem at once (guarantee
 *   2), not only the first;
 * - a request id from `X-Request-Id` when a caller sends a sane one, else a fresh UUID: it
 *   travels into the job and the worker's log lines;
 * - the body limit, and JSON bodies refused past a nesting depth before they are parsed;
 * - a caller's time bounded (the whole request, its headers, an idle keep-alive connection) and
 *   the connections open at once capped;
 * - an answer given before the body was read closes the connection (early-answer.ts), and every
 *   close after an answer lingers so the caller reads its answer (lingering-close.ts);
 * - `100 Continue` only once the body is about to be read (expect-continue.ts).
 *
 * A socket with no traffic either way for IDLE_SOCKET_TIMEOUT_MS is closed: a caller that stops
 * reading a download holds its connection no longer than that. It is well past the longest wait
 * for an answer (a conversion waits up to a minute), during which the socket is quiet.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const limits = options.connections ?? DEFAULT_HTTP_CONNECTION_LIMITS;
  const app = Fastify({
    bodyLimit: options.bodyLimit,
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: options.idleSocketTimeoutMs ?? IDLE_SOCKET_TIMEOUT_MS,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
    ...(options.logger ? { loggerInstance: withRedactedUrls(options.logger) } : { logger: false }),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: false } },
    // The router's refusals (a URL it cannot decode, a path value past its limit) in the shape
    // of the URL's surface, not Fastify's own (framework-errors.ts).
    frameworkErrors: (error, request, reply) => {
      void answerFrameworkError(error, request, reply);
    },
    // What Node cannot parse (an unknown method, headers past 16 KiB, a timeout), likewise.
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: MAX_PATH_VALUE_LENGTH },
    // Only the named proxies: with `true`, any caller could pick its own address by the header.
    ...(options.trustedProxies?.length ? { trustProxy: options.trustedProxies } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = limits.maxConnections;
  trackCurrentRequests(app.server);
  lingerOnClose(app.server);
  closeAfterEarlyAnswer(app);
  continueWhenBodyIsRead(app);
  parseJsonBodiesBounded(app);
  return app;
}
