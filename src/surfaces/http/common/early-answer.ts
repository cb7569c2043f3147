import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { lingeringClose } from './lingering-close.js';

/**
 * Whether the request announced a body that has not been read to its end. A request without a
 * body counts as read: Node marks it complete only after the `request` event, so an answer
 * given at once (a synchronous onRequest hook) would otherwise look early.
 */
export function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/**
 * An answer given before the request's body was read (a 401 from the authentication hook, a 413
 * from a parser, an error handler's 400) ends the connection. Node would otherwise read and
 * discard the rest of the body to keep the connection alive for a next request, for as long as
 * the caller sends: the probe saw 3.3 GB read after a 401.
 *
 * Installed once on the root instance, it covers every route, those registered later and the 404
 * handler alike, whatever hook or handler answers:
 * - `onSend` adds `Connection: close`, so the caller knows and Node closes the socket once the
 *   answer is written (with a lingering close, lingering-close.ts);
 * - a raw `finish` listener closes the socket the same way when an answer went out without the
 *   header (a hijacked reply, a route that writes to `reply.raw`).
 *
 * The close lingers: the caller, still sending, reads its answer instead of a reset, and the
 * server reads at most LINGER_BYTES more of the body.
 */
export function closeAfterEarlyAnswer(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (bodyUnread(request.raw) && !reply.raw.headersSent) reply.header('connection', 'close');
    return payload;
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.once('finish', () => {
      if (bodyUnread(request)) lingeringClose(request.socket);
    });
  });
}
