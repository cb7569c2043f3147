import { once } from 'node:events';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { openRaw, trackServerSockets } from '../helpers/raw-http.js';

/**
 * A caller that asks for a large download and then stops reading holds its connection only for
 * the idle-socket time, over a real socket: once the kernel's buffers are full nothing moves
 * either way, and the server closes the connection.
 */

const IDLE_MS = 1000;
let app: HttpApp;
let port: number;
let serverSide: (client: Socket) => Promise<Socket>;

beforeAll(async () => {
  app = createHttpApp({ bodyLimit: 1024, idleSocketTimeoutMs: IDLE_MS });
  // Far more than the kernel buffers on both sides hold, sent as fast as the socket takes it.
  app.get('/large', (_request, reply) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let left = 512;
    return reply.type('application/octet-stream').send(
      Readable.from(
        (function* () {
          while (left-- > 0) yield chunk;
        })(),
      ),
    );
  });
  serverSide = trackServerSockets(app.server);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app?.close();
});

it('closes a connection whose caller stopped reading a download, after the idle time', async () => {
  const connection = await openRaw(port);
  const { socket } = connection;
  socket.write('GET /large HTTP/1.1\r\nHost: x\r\n\r\n');
  // Read the first bytes, so that the answer is known to be flowing, then stop reading.
  expect(await connection.until(/^HTTP\/1\.1 200/)).toBe(true);
  socket.pause();
  const server = await serverSide(socket);
  const started = Date.now();
  await once(server, 'close');
  const closedAfter = Date.now() - started;
  // The write stalls once the buffers are full; then IDLE_MS of silence closes it.
  expect(closedAfter).toBeGreaterThanOrEqual(IDLE_MS);
  // The caller never reads again, so only the idle timeout can close it: how soon is not asserted.
  expect(server.bytesWritten).toBeLessThan(512 * 1024 * 1024);
  socket.destroy();
});
