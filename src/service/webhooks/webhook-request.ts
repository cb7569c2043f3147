import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, type ResolvedAddress } from './destination-guard.js';
import { RESPONSE_KEPT_BYTES, RESPONSE_READ_BYTES } from './webhook-settings.js';

/** One request to a receiver, to the address already checked. */
export interface WebhookRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string;
  address: ResolvedAddress;
  timeoutMs: number;
}

/** The receiver's answer: its status, and the start of its body. */
export interface WebhookAnswer {
  status: number;
  statusText: string;
  /** A redirect's Location, which is not followed. */
  location?: string;
  /** The first RESPONSE_KEPT_BYTES of the body, as text. */
  body: string;
  /** The body was longer than RESPONSE_READ_BYTES and was not read to its end. */
  cut: boolean;
}

/** No answer within the time of one attempt. */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
}

/**
 * Sends one request and reads its answer, bounded: the whole attempt (connection, TLS, the
 * answer's head) within `timeoutMs`, the body read up to RESPONSE_READ_BYTES and dropped after.
 * The connection goes to `address` (the lookup answers it), while the Host header and TLS's
 * server name stay the URL's, so that a certificate is still checked against the name. No
 * redirect is followed: http.request follows none. An answer whose head came in time stands
 * with the body read so far, should the body outlast the attempt.
 */
export function sendWebhookRequest(request: WebhookRequest): Promise<WebhookAnswer> {
  const { url, address } = request;
  const host = hostOf(url);
  const lookup: LookupFunction = (_name, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: request.method,
    headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
    // A connection of its own: no socket of another attempt (another address) is reused.
    agent: false,
    lookup,
    ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    let settled = false;
    let answer: Omit<WebhookAnswer, 'body' | 'cut'> | undefined;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let readBytes = 0;
    const finish = (cut: boolean) => {
      if (settled || !answer) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, body: Buffer.concat(kept).toString('utf8'), cut });
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    };
    const req = send(options, (res) => {
      answer = {
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
      };
      res.on('data', (chunk: Buffer) => {
        readBytes += chunk.length;
        if (keptBytes < RESPONSE_KEPT_BYTES) {
          const part = chunk.subarray(0, RESPONSE_KEPT_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (readBytes >= RESPONSE_READ_BYTES) {
          finish(true);
          req.destroy();
        }
      });
      res.on('end', () => finish(false));
      // The body broke off after the head came: the answer stands with what was read.
      res.on('error', () => finish(true));
      res.on('close', () => finish(true));
    });
    const timer = setTimeout(() => {
      if (answer) {
        finish(true);
        req.destroy();
        return;
      }
      const error = new AttemptTimeoutError(
        `timed out: no answer within ${request.timeoutMs / 1000} s`,
      );
      fail(error);
      req.destroy(error);
    }, request.timeoutMs);
    req.on('error', (err) => fail(err));
    req.end(request.body);
  });
}
