import { docpipeVersion } from '../../render/pipeline/index.js';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signatureOf,
} from './webhook-signature.js';

/** What a try's headers are made of: the delivery, and its webhook's headers and secret. */
export interface HeadersSource {
  deliveryId: string;
  trigger: string;
  body: string;
  webhook: { headers: Record<string, string>; secret: string };
}

/**
 * The headers of one try, sent at `timestamp` (Unix seconds): a JSON type and docpipe's agent
 * unless the webhook sets its own, the webhook's headers, then docpipe's four, which nothing
 * replaces. The one function both the delivery and the dashboard's run page use, so that what
 * the page shows is what was sent.
 */
export function requestHeaders(c: HeadersSource, timestamp: number): Record<string, string> {
  const own = Object.keys(c.webhook.headers).map((h) => h.toLowerCase());
  return {
    ...(own.includes('content-type') ? {} : { 'Content-Type': 'application/json' }),
    ...(own.includes('user-agent') ? {} : { 'User-Agent': `docpipe/${docpipeVersion()}` }),
    ...c.webhook.headers,
    [EVENT_HEADER]: c.trigger,
    [DELIVERY_HEADER]: c.deliveryId,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signatureOf(c.webhook.secret, timestamp, c.body),
  };
}
