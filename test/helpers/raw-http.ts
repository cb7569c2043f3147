import { once } from 'node:events';
import { connect, type Server, type Socket } from 'node:net';

/**
 * HTTP/1.1 over a bare socket, for the tests about the connection itself (early answers, slow or
 * endless senders, timeouts, lingering closes): nothing re-encodes the request, merges headers or
 * reads on the caller's behalf, and what the server did to the connection stays visible.
 */

/** A connection to a listening server and what came back on it. */
export interface RawConnection {
  socket: Socket;
  /** What the server answered so far, as text. */
  received(): string;
  /** Resolves once `pattern` matches what arrived (false if the connection closed first). */
  until(pattern: RegExp): Promise<boolean>;
  /** Milliseconds from the connection's start to its close. */
  closed: Promise<number>;
}

export async function openRaw(port: number): Promise<RawConnection> {
  const opened = Date.now();
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The server resets a connection it stops reading: an expected end here, seen at 'close'.
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(Date.now() - opened)),
  );
  await once(socket, 'connect');
  const received = () => Buffer.concat(chunks).toString('utf8');
  return {
    socket,
    received,
    until: async (pattern) => {
      while (!pattern.test(received())) {
        if (socket.destroyed) return false;
        await nextDataOrClose(socket);
      }
      return true;
    },
    closed,
  };
}

/** Sends `request` as written on a connection of its own; answers all the server sent until it closed. */
export async function exchange(port: number, request: string): Promise<string> {
  const connection = await openRaw(port);
  // Written, not ended: a half-closed socket is a caller gone, whose request Node aborts.
  connection.socket.write(request);
  await connection.closed;
  return connection.received();
}

/** A request head: the request line and header lines as given, then the blank line. */
export function requestHead(lines: string[]): string {
  return [...lines, '', ''].join('\r\n');
}

/** The first line of an answer: `HTTP/1.1 408 Request Timeout`. */
export const statusLine = (text: string): string => text.slice(0, text.indexOf('\r\n'));

/** An answer's headers, by lower-case name (the last of a repeated one). */
export function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** An answer's body, parsed as JSON (answers here are not chunked). */
export const bodyOf = (text: string): unknown =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed when the Content-Type is JSON, the text otherwise. */
  body: unknown;
}

/** One whole answer: its status, headers and body. */
export function parseAnswer(text: string): RawAnswer {
  const headers = headersOf(text);
  const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
  return {
    status: Number(statusLine(text).split(' ')[1]),
    headers,
    body: headers['content-type']?.startsWith('application/json') ? JSON.parse(payload) : payload,
  };
}

/**
 * The server's side of each connection to `server`, found from the client's socket: its
 * `bytesRead` is what the server took from the network, which the client's own count exceeds by
 * what the kernel buffers hold. Call before the server takes the connections to be looked up.
 */
export function trackServerSockets(server: Server): (client: Socket) => Promise<Socket> {
  const byClientPort = new Map<number, Socket>();
  server.on('connection', (socket: Socket) => byClientPort.set(socket.remotePort!, socket));
  return async (client) => {
    const local = client.localPort!;
    // 'connect' on the client can come before 'connection' on the server.
    while (!byClientPort.has(local)) await new Promise((r) => setImmediate(r));
    return byClientPort.get(local)!;
  };
}

/** Writes `byte` every `everyMs` until the connection closes: a client sending as slowly as it can. */
export function drip(socket: Socket, everyMs: number, byte = 'x'): void {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(byte);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

export interface Sent {
  /** Bytes handed to the socket, framing included. */
  attempted: number;
  /** Of those, the bytes whose write completed (the kernel took them) before the close. */
  written: number;
  /** The connection closed before `cap` bytes were handed to it. */
  closedFirst: boolean;
}

/**
 * Sends `first` (when given) and then `chunk` again and again, as fast as the connection takes
 * them, until `cap` bytes or the connection closes: a client that never stops sending. With
 * `chunked`, each piece is framed as a chunk of `Transfer-Encoding: chunked`.
 */
export async function sendUntilClosed(
  socket: Socket,
  chunk: Buffer,
  options: { cap: number; chunked?: boolean; first?: Buffer },
): Promise<Sent> {
  const frame = (bytes: Buffer): Buffer =>
    options.chunked
      ? Buffer.concat([
          Buffer.from(`${bytes.byteLength.toString(16)}\r\n`),
          bytes,
          Buffer.from('\r\n'),
        ])
      : bytes;
  const framed = frame(chunk);
  const sent: Sent = { attempted: 0, written: 0, closedFirst: false };
  let piece = options.first === undefined ? framed : frame(options.first);
  while (sent.attempted < options.cap) {
    if (socket.destroyed || !socket.writable) return closedFirst(sent);
    sent.attempted += piece.byteLength;
    const bytes = piece.byteLength;
    const more = socket.write(piece, (err) => {
      if (!err) sent.written += bytes;
    });
    piece = framed;
    if (!more && !(await drainedOrClosed(socket))) return closedFirst(sent);
  }
  return sent;
}

/** The same object: write callbacks still pending add to its `written`. */
function closedFirst(sent: Sent): Sent {
  sent.closedFirst = true;
  return sent;
}

/** Not events.once: that rejects on the 'error' (EPIPE, ECONNRESET) a server's close raises. */
function drainedOrClosed(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    const settle = (value: boolean) => {
      socket.off('drain', onDrain).off('close', onClose);
      resolve(value);
    };
    socket.once('drain', onDrain).once('close', onClose);
  });
}

function nextDataOrClose(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      socket.off('data', settle).off('close', settle);
      resolve();
    };
    socket.once('data', settle).once('close', settle);
  });
}
