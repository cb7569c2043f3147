/**
 * The delivery benchmark's webhook receiver (bench/delivery.ts), in a process of its own: a
 * receiver runs elsewhere than docpipe, so its CPU and memory count in neither the bench's
 * process nor its readings. It listens on 127.0.0.1, answers every request with the status the
 * parent set (200, or 503 while "down"), and keeps per case (`case._id` of the body) what a
 * consumer would check: how many requests came, how many were answered 2xx, whether one came
 * after a 2xx answer, and whether every request carried the same body and delivery id. The parent
 * talks to it over IPC: it sets the answer, awaits a count of distinct delivered cases or one
 * case's arrival, and reads the summary; no message per request crosses, so the parent pays
 * nothing per delivery for being told.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** What the parent sends. */
export type ReceiverCommand =
  | { type: 'answer'; status: number }
  | { type: 'reset' }
  | { type: 'waitDelivered'; count: number; token: number }
  | { type: 'waitCase'; caseId: string; token: number }
  | { type: 'summary'; token: number }
  | { type: 'arrivals'; token: number };

/** What it answers. */
export type ReceiverMessage =
  | { type: 'listening'; url: string }
  | { type: 'delivered'; token: number; at: number }
  | { type: 'case'; token: number; at: number }
  | { type: 'summary'; token: number; summary: ReceiverSummary }
  /** When each delivered case was first answered 2xx (wall ms), since the last reset. */
  | { type: 'arrivals'; token: number; at: number[] };

export interface ReceiverSummary {
  requests: number;
  /** Requests answered 2xx. */
  okRequests: number;
  /** Cases with at least one request, and with a 2xx answer. */
  cases: number;
  delivered: number;
  /** Cases answered 2xx more than once: a delivery repeated after success. */
  duplicates: number;
  /** Requests that came for a case after it was answered 2xx. */
  afterSuccess: number;
  /** Cases whose requests did not all carry the same body, or the same delivery id. */
  bodyChanged: number;
  deliveryIdChanged: number;
  /** Requests whose body named no case. */
  unknown: number;
}

interface Seen {
  requests: number;
  ok: number;
  afterOk: number;
  body: string;
  delivery: string;
  bodyChanged: boolean;
  deliveryChanged: boolean;
  /** When its first 2xx answer was given. */
  okAt: number;
}

const deliveryHeader = (process.env.RECEIVER_DELIVERY_HEADER ?? 'x-docpipe-delivery').toLowerCase();
/** Wall time in ms with sub-millisecond precision, comparable with the parent's. */
const wall = () => performance.timeOrigin + performance.now();

let status = 200;
let seen = new Map<string, Seen>();
let requests = 0;
let okRequests = 0;
let delivered = 0;
let unknown = 0;
let waitingCount: { count: number; token: number } | undefined;
const waitingCases = new Map<string, number>();

const send = (m: ReceiverMessage) => process.send?.(m);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = wall();
    const raw = Buffer.concat(chunks);
    const answer = status;
    res.writeHead(answer, { 'Content-Type': 'text/plain' });
    res.end(answer < 300 ? 'ok' : 'down');
    requests++;
    let caseId: string | undefined;
    try {
      caseId = (JSON.parse(raw.toString('utf8')) as { case?: { _id?: string } }).case?._id;
    } catch {
      caseId = undefined;
    }
    if (!caseId) {
      unknown++;
      return;
    }
    const hash = createHash('sha1').update(raw).digest('base64');
    const delivery = String(req.headers[deliveryHeader] ?? '');
    let s = seen.get(caseId);
    if (!s) {
      s = {
        requests: 0,
        ok: 0,
        afterOk: 0,
        body: hash,
        delivery,
        bodyChanged: false,
        deliveryChanged: false,
        okAt: 0,
      };
      seen.set(caseId, s);
    }
    s.requests++;
    if (s.ok > 0) s.afterOk++;
    if (s.body !== hash) s.bodyChanged = true;
    if (s.delivery !== delivery) s.deliveryChanged = true;
    if (answer >= 200 && answer < 300) {
      okRequests++;
      s.ok++;
      if (s.ok === 1) {
        s.okAt = at;
        delivered++;
        const token = waitingCases.get(caseId);
        if (token !== undefined) {
          waitingCases.delete(caseId);
          send({ type: 'case', token, at });
        }
        if (waitingCount && delivered >= waitingCount.count) {
          send({ type: 'delivered', token: waitingCount.token, at });
          waitingCount = undefined;
        }
      }
    }
  });
});

function summary(): ReceiverSummary {
  let duplicates = 0;
  let afterSuccess = 0;
  let bodyChanged = 0;
  let deliveryIdChanged = 0;
  for (const s of seen.values()) {
    if (s.ok > 1) duplicates++;
    afterSuccess += s.afterOk;
    if (s.bodyChanged) bodyChanged++;
    if (s.deliveryChanged) deliveryIdChanged++;
  }
  return {
    requests,
    okRequests,
    cases: seen.size,
    delivered,
    duplicates,
    afterSuccess,
    bodyChanged,
    deliveryIdChanged,
    unknown,
  };
}

process.on('message', (m: ReceiverCommand) => {
  switch (m.type) {
    case 'answer':
      status = m.status;
      break;
    case 'reset':
      seen = new Map();
      requests = okRequests = delivered = unknown = 0;
      break;
    case 'waitDelivered':
      if (delivered >= m.count) send({ type: 'delivered', token: m.token, at: wall() });
      else waitingCount = { count: m.count, token: m.token };
      break;
    case 'waitCase': {
      const s = seen.get(m.caseId);
      if (s && s.ok > 0) send({ type: 'case', token: m.token, at: s.okAt });
      else waitingCases.set(m.caseId, m.token);
      break;
    }
    case 'summary':
      send({ type: 'summary', token: m.token, summary: summary() });
      break;
    case 'arrivals':
      send({
        type: 'arrivals',
        token: m.token,
        at: [...seen.values()].filter((s) => s.ok > 0).map((s) => s.okAt),
      });
      break;
  }
});
// The parent gone: nothing to receive for.
process.on('disconnect', () => process.exit(0));

server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  send({ type: 'listening', url: `http://127.0.0.1:${port}` });
});
