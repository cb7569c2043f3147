import { validateHeaderValue } from 'node:http';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from './webhook-signature.js';

/** RFC 9110's token: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/**
 * Headers that frame the request or route it: their value is docpipe's to set (the body is
 * docpipe's, sent as it is), or a second one would split or garble the request.
 */
const FRAMING_HEADERS = new Set([
  'host',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
]);

/** The signature headers, which a receiver must be able to trust. */
const SIGNATURE_HEADERS = new Set(
  [SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_HEADER, DELIVERY_HEADER].map((h) => h.toLowerCase()),
);

/**
 * Every `X-Docpipe-` name is docpipe's (docs/webhooks.md): a receiver reads one as sent by
 * docpipe, and a name docpipe adds later must not collide with an operator's.
 */
const OWN_PREFIX = 'x-docpipe-';

/** C0 controls but the tab, DEL and C1 controls: no header value holds one. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/u;

/**
 * Beyond printable ASCII: Node sends U+0080 to U+00FF as Latin-1 bytes (which a receiver may
 * read as UTF-8, or as something else) and refuses anything above, so that such a value would
 * fail every try of every delivery. RFC 9110 5.5 asks new fields for visible ASCII.
 */
const NOT_ASCII = /[^\t\u0020-\u007e]/u;

/**
 * Why a header an operator gives may not be sent with a webhook's deliveries, or undefined: a
 * name that is no token, a framing header, a signature header or any other `X-Docpipe-` name,
 * a value with a control character or a character beyond printable ASCII.
 */
export function headerProblem(name: string, value: string): string | undefined {
  return nameProblem(name) ?? ownNameProblem(name) ?? valueProblem(name, value);
}

/**
 * Why a stored webhook's headers cannot go out, or undefined: a header Node's HTTP client
 * refuses (it would throw on every try), or one that frames the request. A webhook stored
 * before the rules of headerProblem (another `X-Docpipe-` name, a Latin-1 value) is still sent:
 * its receiver gets it today, and refusing it now would stop deliveries that work.
 */
export function unsendableHeader(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    const framing = nameProblem(name);
    if (framing) return framing;
    try {
      validateHeaderValue(name, value);
    } catch {
      return valueProblem(name, value) ?? `${name}'s value cannot be sent`;
    }
  }
  return undefined;
}

/** A name that is no token, a signature header, or one that frames the request. */
function nameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a header name`;
  const lower = name.toLowerCase();
  if (SIGNATURE_HEADERS.has(lower))
    return `${name} is docpipe's own (the signature headers cannot be replaced)`;
  if (FRAMING_HEADERS.has(lower))
    return `${name} is set by docpipe (it frames or routes the request)`;
  return undefined;
}

function ownNameProblem(name: string): string | undefined {
  if (!name.toLowerCase().startsWith(OWN_PREFIX)) return undefined;
  return `${name}: the X-Docpipe- headers are docpipe's own (a receiver trusts them to come from docpipe); choose another name`;
}

function valueProblem(name: string, value: string): string | undefined {
  const control = CONTROL.exec(value);
  if (control) return `${name}'s value holds a control character (${codePoint(control[0])})`;
  const wide = NOT_ASCII.exec(value);
  if (wide)
    return `${name}'s value holds ${JSON.stringify(wide[0])} (${codePoint(wide[0])}): a header value is printable ASCII; percent-encode or base64 the text`;
  return undefined;
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
