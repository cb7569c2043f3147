import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a closing connection goes on reading what the caller still sends after its answer.
 * Long enough for the caller to read the answer and stop (a loopback or LAN caller takes
 * milliseconds, a far one a few round trips), short enough that a caller cannot hold it.
 */
export const LINGER_MS = 1000;

/** How much a closing connection reads and discards after its answer, at most. */
export const LINGER_BYTES = 512 * 1024;

const lingering = new WeakSet<Socket>();

/**
 * Closes `socket` once its answer is written, without losing that answer. Destroying a socket
 * whose caller is still sending makes the kernel answer the caller's next bytes with a reset,
 * and a reset can throw away the answer the caller had not read yet (Node's http.request lost a
 * 401 once in 4 tries, a raw client about half its 413s). So: end our side (FIN after the
 * answer), read and discard what still arrives, and destroy when the caller closes its side, or
 * after LINGER_MS or LINGER_BYTES, whichever comes first.
 *
 * The socket leaves HTTP: its bytes no longer reach Node's parser, so a request sent after the
 * answer is not served and a body is not parsed for nothing.
 */
export function lingeringClose(socket: Socket): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const start = socket.bytesRead;
  const discard = (): void => {
    if (socket.bytesRead - start > LINGER_BYTES) socket.destroy();
  };
  // A 'data' listener takes the socket's bytes back from Node's native HTTP parser; the
  // server's own listener, which would feed them to the parser, goes.
  socket.on('data', discard);
  for (const listener of socket.listeners('data'))
    if (listener !== discard) socket.off('data', listener as (...args: unknown[]) => void);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The caller closed its side: it has read what it wanted.
  socket.once('end', () => socket.destroy());
  socket.end();
  // Paused while a parser held back (a body nobody read): discarding needs the bytes to flow.
  socket.resume();
}

/**
 * Every connection `server` closes after an answer (`Connection: close`, which Node ends with the
 * socket's `destroySoon`) closes with lingeringClose.
 */
export function lingerOnClose(server: Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => lingeringClose(socket);
  });
}
