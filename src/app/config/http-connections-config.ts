import { parseDuration } from '../../base/util/index.js';

/**
 * How long a caller may take and how many may be connected at once, so that slow or many
 * clients cannot hold the server (Node and Fastify bound none of these by default).
 */
export interface HttpConnectionLimits {
  /**
   * `DOCPIPE_HTTP_REQUEST_TIMEOUT`: the longest a caller may take to send a whole request
   * (headers and body); past it the connection is closed. @defaultValue '30s', or the headers
   * timeout when that is set longer
   */
  requestTimeoutMs: number;
  /**
   * `DOCPIPE_HTTP_HEADERS_TIMEOUT`: the longest a caller may take to send a request's headers;
   * at most the request timeout. @defaultValue '10s', or the request timeout when that is set
   * shorter
   */
  headersTimeoutMs: number;
  /**
   * `DOCPIPE_HTTP_KEEP_ALIVE_TIMEOUT`: how long a connection may stay idle between requests
   * before it is closed. Longer than the idle timeout of the proxies put in front (60 s on AWS's
   * load balancers): a proxy that reuses a connection the server has just closed answers its
   * client 502, and a client reusing one gets "other side closed" (seen with 5 s under load).
   * Fastify's own default. @defaultValue '72s'
   */
  keepAliveTimeoutMs: number;
  /**
   * `DOCPIPE_HTTP_MAX_CONNECTIONS`: connections open at once; one more is closed as it arrives.
   * @defaultValue 1024
   */
  maxConnections: number;
}

export const DEFAULT_HTTP_CONNECTION_LIMITS: Readonly<HttpConnectionLimits> = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
});

/**
 * A longer timeout lets a slow client hold a connection for that long: an hour is already far
 * past any upload docpipe takes, so more is a typo.
 */
const LONGEST_TIMEOUT_MS = 60 * 60 * 1000;

export function httpConnectionLimitsFrom(
  env: NodeJS.ProcessEnv,
  int: (name: string, fallback: number) => number,
  problems: string[],
): HttpConnectionLimits {
  const timeout = (name: string, fallbackMs: number): number => {
    const text = env[name];
    if (text === undefined || text === '') return fallbackMs;
    try {
      const ms = parseDuration(text, { seconds: true });
      if (ms <= LONGEST_TIMEOUT_MS) return ms;
      problems.push(`${name} must be at most 1h (got "${text}")`);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
    }
    return fallbackMs;
  };
  const defaults = DEFAULT_HTTP_CONNECTION_LIMITS;
  const given = (name: string) => env[name] !== undefined && env[name] !== '';
  // A default gives way to the other timeout when only that one is set: a setting valid alone
  // never fails the start because of a default it was not compared with.
  const requestGiven = given('DOCPIPE_HTTP_REQUEST_TIMEOUT');
  const headersGiven = given('DOCPIPE_HTTP_HEADERS_TIMEOUT');
  let requestTimeoutMs = timeout('DOCPIPE_HTTP_REQUEST_TIMEOUT', defaults.requestTimeoutMs);
  let headersTimeoutMs = timeout('DOCPIPE_HTTP_HEADERS_TIMEOUT', defaults.headersTimeoutMs);
  if (requestGiven && !headersGiven)
    headersTimeoutMs = Math.min(headersTimeoutMs, requestTimeoutMs);
  if (headersGiven && !requestGiven)
    requestTimeoutMs = Math.max(requestTimeoutMs, headersTimeoutMs);
  const limits: HttpConnectionLimits = {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: timeout('DOCPIPE_HTTP_KEEP_ALIVE_TIMEOUT', defaults.keepAliveTimeoutMs),
    maxConnections: int('DOCPIPE_HTTP_MAX_CONNECTIONS', defaults.maxConnections),
  };
  // Node refuses to start otherwise: the headers are part of the request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    problems.push(
      `DOCPIPE_HTTP_HEADERS_TIMEOUT (${limits.headersTimeoutMs / 1000} s) must be at most DOCPIPE_HTTP_REQUEST_TIMEOUT (${limits.requestTimeoutMs / 1000} s): the headers are part of the request`,
    );
  return limits;
}
