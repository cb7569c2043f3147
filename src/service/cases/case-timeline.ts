import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { flowOfCreatorKey } from './flow-creator-key.js';
import { shownUrl } from '../webhooks/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One row of a case's timeline: an event of its outbox (its trigger), with the recipient it
 * names and a denial's reason; or `case.sealed`, which is no event (sealing writes none) but
 * the moment the case's sealed_at records.
 */
export interface CaseTimelineEvent {
  id: string;
  trigger: string;
  at: Date;
  recipient?: string;
  reason?: string;
}

/** The timeline's row of the case's sealing: read from the case row, not the outbox. */
export const SEALED_TRIGGER = 'case.sealed';

/** One message of the case as its delivery report shows it. */
export interface CaseMessage {
  id: string;
  channel: string;
  kind: string;
  recipientId: string | null;
  to: string | null;
  status: string;
  error: string | null;
  at: Date;
}

/**
 * One webhook run of the case: the delivery of one of its events to one webhook, with its tries
 * so far. `url` is shown without its query, which may carry a receiver's secret.
 */
export interface CaseWebhookRun {
  id: string;
  webhookId: string;
  url: string;
  trigger: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** The last try's HTTP status; null when no answer came or none was tried. */
  lastStatus: number | null;
  /**
   * What went wrong on the last try, as the delivery recorded it (`connect ECONNREFUSED ...`,
   * `timed out: ...`, `HTTP 500 ...`); null when it succeeded or none was tried. It tells a
   * member why no answer came, which the status alone cannot.
   */
  lastError: string | null;
  at: Date;
}

/** What the dashboard's case page reads beside the case view (issue 34). */
export interface CaseTrail {
  /**
   * Changes whenever the page's changing part may have: the case's and its recipients' last
   * update and the last event's id. The page's live poll compares it.
   */
  version: string;
  events: CaseTimelineEvent[];
  /** Per recipient id: when the invitation and the last reminder went, and how a signer signed. */
  recipients: Map<
    string,
    { invitedAt: Date | null; remindedAt: Date | null; method: string | null }
  >;
  messages: CaseMessage[];
  webhookRuns: CaseWebhookRun[];
  /** The web-flow that made the case (its id), or null when none did. */
  flowId: string | null;
}

/** The case's timeline, invitations, signature methods and messages; undefined when not the company's. */
export async function readCaseTrail(
  db: Kysely<Database>,
  company: string,
  id: string,
): Promise<CaseTrail | undefined> {
  if (!UUID.test(id)) return undefined;
  const kase = await db
    .selectFrom('cases')
    .select(['updated_at', 'sealed_at', 'created_by_key'])
    .where('company_id', '=', company)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!kase) return undefined;
  const [events, recipients, messages, runs] = await Promise.all([
    db
      .selectFrom('case_events')
      .select(['id', 'trigger', 'payload', 'created_at'])
      .where('company_id', '=', company)
      .where('case_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('recipients')
      .leftJoin('signatures', (j) =>
        j
          .onRef('signatures.recipient_id', '=', 'recipients.id')
          .onRef('signatures.company_id', '=', 'recipients.company_id'),
      )
      .select([
        'recipients.id',
        'recipients.invited_at',
        'recipients.updated_at',
        'recipients.status',
        'signatures.method',
      ])
      .where('recipients.company_id', '=', company)
      .where('recipients.case_id', '=', id)
      .execute(),
    db
      .selectFrom('messages')
      .select([
        'id',
        'channel',
        'kind',
        'recipient_id',
        'to_address',
        'status',
        'error',
        'created_at',
        'sent_at',
      ])
      .where('company_id', '=', company)
      .where('case_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', (j) =>
        j
          .onRef('webhooks.id', '=', 'webhook_deliveries.webhook_id')
          .onRef('webhooks.company_id', '=', 'webhook_deliveries.company_id'),
      )
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.webhook_id',
        'webhooks.url',
        'webhook_deliveries.trigger',
        'webhook_deliveries.status',
        'webhook_deliveries.attempts',
        'webhook_deliveries.last_status',
        'webhook_deliveries.last_error',
        'webhook_deliveries.created_at',
      ])
      .where('webhook_deliveries.company_id', '=', company)
      .where('webhook_deliveries.case_id', '=', id)
      .orderBy('webhook_deliveries.created_at')
      .orderBy('webhook_deliveries.id')
      .execute(),
  ]);
  const times = [kase.updated_at, ...recipients.map((r) => r.updated_at)].map((d) =>
    new Date(d).getTime(),
  );
  const lastEvent = events.at(-1)?.id ?? '';
  // Statuses too: a writer that forgets updated_at still moves the version.
  const states = [
    ...recipients.map((r) => `${r.id}:${r.status}`),
    ...messages.map((m) => `${m.id}:${m.status}`),
    ...runs.map((r) => `${r.id}:${r.status}:${r.attempts}`),
  ].join(',');
  return {
    version: `${Math.max(...times)}.${lastEvent}.${hashOf(states)}`,
    events: [
      ...events.map((e) => {
        const reason = reasonOf(e.payload);
        const recipient = recipientOf(e.payload);
        return {
          id: e.id,
          trigger: e.trigger,
          at: new Date(e.created_at),
          ...(recipient ? { recipient } : {}),
          ...(reason ? { reason } : {}),
        };
      }),
      ...(kase.sealed_at
        ? [{ id: 'sealed', trigger: SEALED_TRIGGER, at: new Date(kase.sealed_at) }]
        : []),
    ].sort((a, b) => a.at.getTime() - b.at.getTime()),
    recipients: new Map(
      recipients.map((r) => [
        r.id,
        {
          invitedAt: r.invited_at ? new Date(r.invited_at) : null,
          remindedAt: lastReminder(messages, r.id),
          method: r.method ?? null,
        },
      ]),
    ),
    messages: messages.map((m) => ({
      id: m.id,
      channel: m.channel,
      kind: m.kind,
      recipientId: m.recipient_id,
      to: m.to_address,
      status: m.status,
      error: m.error,
      at: new Date(m.created_at),
    })),
    webhookRuns: runs.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      url: shownUrl(r.url),
      trigger: r.trigger,
      status: r.status,
      attempts: r.attempts,
      lastStatus: r.last_status,
      lastError: r.last_error,
      at: new Date(r.created_at),
    })),
    flowId: flowOfCreatorKey(kase.created_by_key),
  };
}

/** When the recipient's last reminder went out (over any channel); null when none did yet. */
function lastReminder(
  messages: { kind: string; recipient_id: string | null; sent_at: Date | null }[],
  recipientId: string,
): Date | null {
  let last: Date | null = null;
  for (const m of messages)
    if (m.kind === 'reminder' && m.recipient_id === recipientId && m.sent_at) {
      const at = new Date(m.sent_at);
      if (!last || at > last) last = at;
    }
  return last;
}

/** A short, stable digest of the recipients' and messages' states, so that a change moves the version. */
function hashOf(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/** A denial event's reason: its payload names it at `reason` or a recipient's `denialReason`. */
function reasonOf(payload: unknown): string | undefined {
  const p = (typeof payload === 'string' ? safeJson(payload) : payload) as
    | { reason?: unknown; denialReason?: unknown; recipient?: { denialReason?: unknown } }
    | null
    | undefined;
  if (!p || typeof p !== 'object') return undefined;
  for (const v of [p.reason, p.denialReason, p.recipient?.denialReason])
    if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** The recipient an event names (`recipient.name` of recipient.* and case.denied). */
function recipientOf(payload: unknown): string | undefined {
  const p = (typeof payload === 'string' ? safeJson(payload) : payload) as
    { recipient?: { name?: unknown } } | null | undefined;
  const name = p && typeof p === 'object' ? p.recipient?.name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
