import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import {
  ALL_TRIGGERS,
  PARTNER_TRIGGER,
  WEBHOOK_TRIGGERS,
  isWebhookTrigger,
} from './webhook-triggers.js';
import { headerProblem, isHeaderName } from './webhook-header-rules.js';

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** A webhook as the operator gives it (`docpipe webhooks add`). */
export interface NewWebhook {
  url: string;
  /** @defaultValue 'POST' */
  method?: string;
  /** One or more of WEBHOOK_TRIGGERS, or `*`. */
  triggers: readonly string[];
  /** `Name: value`, each sent with every delivery. */
  headers?: readonly string[];
  /** @defaultValue true */
  active?: boolean;
}

/** A webhook's input once checked: the method upper-case, triggers once each, headers by name. */
export interface CheckedWebhook {
  url: string;
  method: WebhookMethod;
  triggers: string[];
  headers: Record<string, string>;
  active: boolean;
}

/** The flag each field is typed with, as the refusals name them. */
export const WEBHOOK_FIELDS = {
  url: '--url',
  method: '--method',
  triggers: '--trigger',
  headers: '--header',
} as const;

/** A URL longer than this is a mistake (browsers and proxies stop near 8 KB; receivers far sooner). */
const MAX_URL_CHARS = 2048;
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE_CHARS = 4096;

/**
 * The webhook `input` describes, or DocpipeError `validation-failed` with every problem, each
 * named by the flag it was typed with. A private destination is not refused here: what a name
 * resolves to can change, so it is checked at each delivery.
 */
export function checkWebhook(
  input: NewWebhook,
  /** The company is an active partner with `webhookEnabled`: it may name PARTNER_TRIGGER. */
  options: { partnerTrigger?: boolean } = {},
): CheckedWebhook {
  const problems: FailureDetail[] = [];
  const url = urlProblems(input.url, problems);
  const method = (input.method ?? 'POST').toUpperCase();
  if (!(WEBHOOK_METHODS as readonly string[]).includes(method))
    problems.push({
      field: WEBHOOK_FIELDS.method,
      message: `must be POST, PUT or PATCH (got ${JSON.stringify(input.method)})`,
    });
  const triggers = [...new Set(input.triggers)];
  if (triggers.length === 0)
    problems.push({
      field: WEBHOOK_FIELDS.triggers,
      message: `give at least one: ${WEBHOOK_TRIGGERS.join(', ')}, or ${ALL_TRIGGERS} for all`,
    });
  for (const t of triggers)
    if (t === PARTNER_TRIGGER && !options.partnerTrigger)
      problems.push({
        field: WEBHOOK_FIELDS.triggers,
        message: `${PARTNER_TRIGGER} is received only by a partner of this service with the partner webhook enabled`,
      });
    else if (t !== ALL_TRIGGERS && t !== PARTNER_TRIGGER && !isWebhookTrigger(t))
      problems.push({
        field: WEBHOOK_FIELDS.triggers,
        message: `${JSON.stringify(t)} is no trigger: give ${WEBHOOK_TRIGGERS.join(', ')}, or ${ALL_TRIGGERS} for all`,
      });
  const headers = headerProblems(input.headers ?? [], problems);
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  return {
    url: url!,
    method: method as WebhookMethod,
    triggers,
    headers,
    active: input.active ?? true,
  };
}

function urlProblems(text: string, problems: FailureDetail[]): string | undefined {
  const field = WEBHOOK_FIELDS.url;
  if (text.length > MAX_URL_CHARS) {
    problems.push({ field, message: `must be at most ${MAX_URL_CHARS} characters` });
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push({
      field,
      message: `${JSON.stringify(text)} is not a URL: give http(s)://host/path`,
    });
    return undefined;
  }
  const before = problems.length;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push({ field, message: `must be http or https (got ${url.protocol.slice(0, -1)})` });
  if (url.username !== '' || url.password !== '')
    problems.push({
      field,
      message: 'must not hold credentials (user:password@); send them in a --header',
    });
  if (url.hostname === '') problems.push({ field, message: 'must name a host' });
  return problems.length === before ? url.href : undefined;
}

function headerProblems(
  lines: readonly string[],
  problems: FailureDetail[],
): Record<string, string> {
  const field = WEBHOOK_FIELDS.headers;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  if (lines.length > MAX_HEADERS)
    problems.push({ field, message: `at most ${MAX_HEADERS} headers (got ${lines.length})` });
  for (const line of lines) {
    const shown = JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
    // eslint-disable-next-line no-control-regex
    if (/[\r\n\u0000]/.test(line)) {
      problems.push({ field, message: `${shown} holds a CR, LF or NUL: one line of Name: value` });
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) {
      problems.push({ field, message: `${shown} is not Name: value` });
      continue;
    }
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!isHeaderName(name)) {
      problems.push({ field, message: `${shown}: ${JSON.stringify(name)} is not a header name` });
      continue;
    }
    const problem = headerProblem(name, value);
    if (problem !== undefined) {
      problems.push({ field, message: problem });
      continue;
    }
    if (value.length > MAX_HEADER_VALUE_CHARS) {
      problems.push({
        field,
        message: `${name}'s value is over ${MAX_HEADER_VALUE_CHARS} characters`,
      });
      continue;
    }
    const lower = name.toLowerCase();
    if (seen.has(lower)) {
      problems.push({ field, message: `${name} is given twice` });
      continue;
    }
    seen.add(lower);
    headers[name] = value;
  }
  return headers;
}
