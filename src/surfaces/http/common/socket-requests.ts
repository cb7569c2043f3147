import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The request each socket is serving, from Node's `request` event until its answer is written.
 * What Node reports on the socket alone (a timeout on `clientError`, a close) carries no request
 * line: this says which request, so its answer takes that route's shape (client-errors.ts) and a
 * lingering close can drain its body (lingering-close.ts).
 */
const current = new WeakMap<Socket, IncomingMessage>();

/** The request `socket` is serving, if one was read and not answered yet. */
export function currentRequest(socket: Socket): IncomingMessage | undefined {
  return current.get(socket);
}

/** Keeps currentRequest up to date for every request `server` reads. */
export function trackCurrentRequests(server: Server): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    current.set(socket, request);
    response.once('finish', () => {
      // A pipelined next request may have taken the socket's place already.
      if (current.get(socket) === request) current.delete(socket);
    });
  });
}
