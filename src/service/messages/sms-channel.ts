import type { Logger } from '../../base/log/index.js';
import { errorText, reported } from './channel-report.js';
import { composeSms } from './compose-sms.js';
import type { DeliveryConfig } from './delivery-config.js';
import type { ChannelResult, MessageChannel, OutgoingMessage } from './message.js';

export const SMS_NOT_CONFIGURED = 'SMS delivery is not configured (DOCPIPE_SMS_URL)';

/** A gateway's answer is read up to this much: an id or an error fits, a runaway body is cut. */
export const MAX_SMS_ANSWER_BYTES = 64 * 1024;

/**
 * SMS through an HTTP gateway: `POST <DOCPIPE_SMS_URL>` with `Authorization` when configured and
 * the JSON body `{to, from?, text}`, which most SMS providers take directly or through a small
 * relay. A 2xx answer is sent (its JSON `id`, if any, is the location); anything else, a redirect
 * (never followed: the operator's URL is the place) or no answer within `timeoutMs` is not.
 */
export function smsChannel(config: DeliveryConfig, logger: Logger): MessageChannel {
  const sms = config.sms;
  if (!sms)
    return {
      name: 'sms',
      configured: false,
      send: (): Promise<ChannelResult> => Promise.resolve({ ok: false, error: SMS_NOT_CONFIGURED }),
      close: () => Promise.resolve(),
    };
  return {
    name: 'sms',
    configured: true,
    async send(m: OutgoingMessage): Promise<ChannelResult> {
      let result: ChannelResult;
      try {
        result = await post(m, sms, config);
      } catch (err) {
        result = { ok: false, error: errorText(err) };
      }
      return reported(logger, 'sms', m, result);
    },
    close: () => Promise.resolve(),
  };
}

async function post(
  m: OutgoingMessage,
  sms: NonNullable<DeliveryConfig['sms']>,
  config: DeliveryConfig,
): Promise<ChannelResult> {
  const to = phoneNumber(m.to.phone);
  if (to === undefined) return { ok: false, error: 'the recipient has no phone number' };
  if (to === null)
    return { ok: false, error: "the recipient's phone number is not a valid number" };
  const text = composeSms(m, { timeZone: config.timeZone });
  const body = JSON.stringify({ to, ...(sms.from ? { from: sms.from } : {}), text });
  let response: Response;
  try {
    response = await fetch(sms.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(sms.authorization ? { authorization: sms.authorization } : {}),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (err) {
    return { ok: false, error: fetchProblem(err, config) };
  }
  let answer: string;
  try {
    answer = await readCapped(response, MAX_SMS_ANSWER_BYTES);
  } catch (err) {
    return { ok: false, error: `${fetchProblem(err, config)} (while its answer was read)` };
  }
  if (response.status < 200 || response.status > 299) {
    const why =
      response.status >= 300 && response.status < 400
        ? ' (redirects are not followed: set DOCPIPE_SMS_URL to the final address)'
        : answer.trim()
          ? `: ${answer.trim().slice(0, 300)}`
          : '';
    return { ok: false, error: `the SMS gateway answered ${response.status}${why}` };
  }
  return { ok: true, ...locationOf(answer) };
}

/**
 * A number as gateways take it: `+` and digits (spaces, dashes, dots and brackets people write
 * are dropped). undefined: none given; null: not a phone number.
 */
export function phoneNumber(phone: string | null | undefined): string | null | undefined {
  if (phone === null || phone === undefined || phone.trim() === '') return undefined;
  const compact = phone.trim().replace(/[\s\-.()/]/g, '');
  return /^\+?[0-9]{4,15}$/.test(compact) ? compact : null;
}

function locationOf(answer: string): { location?: string } {
  try {
    const json: unknown = JSON.parse(answer);
    if (typeof json === 'object' && json !== null && 'id' in json) {
      const id = json.id;
      if (typeof id === 'string' || typeof id === 'number') return { location: String(id) };
    }
  } catch {
    // Not JSON: sent, without an id.
  }
  return {};
}

/** The answer's body as text, at most `max` bytes of it; the rest is not read. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - size;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    size += Math.min(value.byteLength, room);
    if (size >= max) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function fetchProblem(err: unknown, config: DeliveryConfig): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `the SMS gateway did not answer within ${config.timeoutMs} ms`;
  const why = e.cause?.message ?? e.cause?.code ?? errorText(err);
  return `the SMS gateway could not be reached: ${why}`;
}
