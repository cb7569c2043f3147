import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { currentRequest } from './socket-requests.js';
import { refusalBody, shapeOfUrl, type Refusal } from './url-surface.js';

/**
 * What Node's HTTP parser or its timers report on `clientError`; a parser error's `rawPacket`
 * holds the bytes it had when it gave up, the request line when it got that far.
 */
type ClientError = Error & { code?: string; rawPacket?: unknown };

/**
 * The refusal of each failure Node reports before Fastify sees a request: the caller's time
 * (DOCPIPE_HTTP_REQUEST_TIMEOUT, DOCPIPE_HTTP_HEADERS_TIMEOUT), headers past Node's 16 KiB, a
 * method Node does not know (`FOO /x`), and anything else that is not HTTP/1.1.
 */
function refusalOf(code: string | undefined): Refusal {
  const slug = 'validation-failed';
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        slug,
        details: [
          {
            field: 'request',
            message: 'was not sent whole in time; send the request at once, not slowly',
          },
        ],
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        slug,
        details: [{ field: 'headers', message: 'are larger than 16 KiB; send fewer or shorter' }],
      };
    case 'HPE_INVALID_METHOD':
      return {
        status: 400,
        slug,
        details: [{ field: 'method', message: 'is not an HTTP method docpipe knows' }],
      };
    default:
      return {
        status: 400,
        slug,
        details: [{ field: 'request', message: 'is not valid HTTP/1.1' }],
      };
  }
}

/** The path of the request line in `raw`, when the parser read that far. */
function requestTarget(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const line = raw.subarray(0, Math.min(raw.length, 8192)).toString('latin1').split('\r\n', 1)[0]!;
  return /^\S+ (\/\S*) HTTP\/\d\.\d$/.exec(line)?.[1];
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not read is answered in the shape of the
 * surface its request line names, instead of Fastify's `{"error":"Bad Request","message":"Client
 * Error"}`, and the connection is closed once the answer is written. A timeout's error carries no
 * request line: the request the socket was serving names the surface (a slow body on a v2 route
 * is answered in v2's shape), and `{message}` is left for a socket whose request line was never
 * read (slow headers).
 */
export function answerClientError(err: ClientError, socket: Socket): void {
  // The caller is gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = refusalOf(err.code);
  const body = JSON.stringify(
    refusalBody(
      shapeOfUrl(requestTarget(err.rawPacket) ?? currentRequest(socket)?.url ?? '/'),
      refusal,
    ),
  );
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
