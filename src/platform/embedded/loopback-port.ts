import { createServer } from 'node:net';

/** A free TCP port on loopback, found by letting the kernel choose one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether nothing listens on `port` on loopback (Node, like redis-server and postgres, binds with
 * SO_REUSEADDR, so a port that only lingers in TIME-WAIT counts as free).
 */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether `port` is free now or becomes free within `ms`. */
export async function freeWithin(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await isPortFree(port)) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
