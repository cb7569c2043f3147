import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1 (port 0) for tests and the benchmark: it records each request
 * (method, path, headers, raw body) and answers as scripted (a status, a slow answer, a huge
 * body, a redirect, or none at all), and lets a test await requests instead of sleeping.
 */
export interface ReceivedRequest {
  method: string;
  /** The path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as bytes and as UTF-8. */
  raw: Buffer;
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

/** How to answer one request: a status alone, or more. */
export type Reply =
  | number
  | {
      /** @defaultValue 200 */
      status?: number;
      headers?: Record<string, string>;
      body?: string;
      /** Answer after this long (the head and body both). */
      delayMs?: number;
      /** Send the head, then this many bytes of body, streamed (a huge answer). */
      bodyBytes?: number;
      /** Never answer (the socket is closed by close()). */
      hang?: boolean;
    };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; add a path of your own. */
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order; after them the default. */
  script(...replies: Reply[]): void;
  /** The answer once the script is used up. @defaultValue 200 */
  setDefault(reply: Reply): void;
  /** The next request not yet handed out by next() (one already here, or the next to come). */
  next(): Promise<ReceivedRequest>;
  /** The first `count` requests, once that many have come. */
  waitFor(count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: { default?: Reply } = {},
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const scripted: Reply[] = [];
  let fallback: Reply = options.default ?? 200;
  let handedOut = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const arrived = () => {
    for (const w of [...waiters])
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const until = (count: number) =>
    requests.length >= count
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ count, resolve }));

  const server = createServer((req, res) => {
    const reply = scripted.shift() ?? fallback;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body: raw.toString('utf8'),
        at: Date.now(),
      });
      arrived();
      answer(res, reply, timers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...replies) => scripted.push(...replies),
    setDefault: (reply) => {
      fallback = reply;
    },
    async next() {
      const index = handedOut++;
      await until(index + 1);
      return requests[index]!;
    },
    async waitFor(count) {
      await until(count);
      return requests.slice(0, count);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, reply: Reply, timers: Set<NodeJS.Timeout>): void {
  const r = typeof reply === 'number' ? { status: reply } : reply;
  if (r.hang) return;
  const send = () => {
    if (res.destroyed) return;
    res.writeHead(r.status ?? 200, r.headers);
    if (r.bodyBytes === undefined) {
      res.end(r.body ?? '');
      return;
    }
    // Streamed in chunks, as long as the client reads; a client that stops reading is left.
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let left = r.bodyBytes;
    const write = () => {
      while (left > 0 && !res.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, left));
        left -= part.length;
        if (!res.write(part)) {
          res.once('drain', write);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    res.on('error', () => {});
    write();
  };
  if (r.delayMs) {
    const t = setTimeout(() => {
      timers.delete(t);
      send();
    }, r.delayMs);
    timers.add(t);
  } else send();
}
