import { createServer, type IncomingHttpHeaders } from 'node:http';

/** One request the gateway got: as sent, and its body read as JSON when it is JSON. */
export interface SmsRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

/** How the gateway answers: `{status, body?, headers?}`, or `hang` (never). */
export type SmsAnswer =
  { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface SmsGateway {
  /** `http://127.0.0.1:<port>/sms`, as DOCPIPE_SMS_URL takes it. */
  url: string;
  requests: SmsRequest[];
  /** The next request not yet taken by nextRequest (those already received first, in order). */
  nextRequest(): Promise<SmsRequest>;
  /** From now on answer so (null: the default, 200 `{"id": "sms-<n>"}`). */
  answer(answer: SmsAnswer | null): void;
  close(): Promise<void>;
}

/** A local HTTP SMS gateway on 127.0.0.1 at a free port, recording every request. */
export async function startSmsGateway(): Promise<SmsGateway> {
  const requests: SmsRequest[] = [];
  const waiting: ((r: SmsRequest) => void)[] = [];
  let taken = 0;
  let answer: SmsAnswer | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: SmsRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
      };
      requests.push(request);
      const next = waiting.shift();
      if (next) {
        taken += 1;
        next(request);
      }
      if (answer === 'hang') return;
      const a = answer ?? {
        status: 200,
        body: JSON.stringify({ id: `sms-${requests.length}` }),
        headers: { 'content-type': 'application/json' },
      };
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    nextRequest() {
      if (taken < requests.length) return Promise.resolve(requests[taken++]!);
      return new Promise((resolve) => waiting.push(resolve));
    },
    answer(a) {
      answer = a;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
