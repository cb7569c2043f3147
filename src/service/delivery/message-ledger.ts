import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import type { ChannelName, MessageKind } from '../messages/index.js';
import { StatementBatcher, batcherFor } from '../webhooks/index.js';

/** A message a case is to send: the ledger's unique key and where it goes. */
export interface PlannedMessage {
  company: string;
  caseId: string;
  /** The recipient's id, or null for the sender (the denial notice). */
  recipientId: string | null;
  channel: ChannelName;
  kind: MessageKind;
  /** A reminder's number, from 1; 0 for the others. */
  sequence: number;
  toAddress: string | null;
}

/**
 * A web-flow's message (issue 36): to one of its people, by e-mail. Its unique key is the
 * flow's (messages_flow_once), as a case's is the case's.
 */
export interface PlannedFlowMessage {
  company: string;
  flowId: string;
  /** The flow's person (webflow_recipients.id). */
  flowRecipientId: string;
  kind: 'flow-invitation' | 'flow-reminder';
  /** A reminder's number, from 1; 0 for the invitation. */
  sequence: number;
  toAddress: string;
}

/** A row of the ledger, as a sender claims it: a case's or a web-flow's, exactly one. */
export interface LedgerRow {
  id: string;
  company: string;
  /** The case; null for a web-flow's message. */
  caseId: string | null;
  recipientId: string | null;
  /** The web-flow and its person; null for a case's message. */
  flowId: string | null;
  flowRecipientId: string | null;
  channel: ChannelName;
  kind: MessageKind;
  sequence: number;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  error: string | null;
  location: string | null;
}

/** A claim outlives any one send (timeouts of 10 s per channel) many times over. */
const CLAIM_MS = 2 * 60_000;
/** Tries of a message that fails for a reason that may pass (a server down): then it stays failed. */
export const MAX_MESSAGE_ATTEMPTS = 6;
/** The waits after each failed try: 1 min, 5 min, 30 min, 2 h, 6 h. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];

/** What a sender reads of a ledger row. */
const LEDGER_COLUMNS = [
  'id',
  'company_id',
  'case_id',
  'recipient_id',
  'flow_id',
  'flow_recipient_id',
  'channel',
  'kind',
  'sequence',
  'status',
  'attempts',
  'error',
  'location',
] as const;

const addresseeOf = (m: Pick<PlannedMessage, 'recipientId'>) => m.recipientId ?? 'sender';

/**
 * Writes the messages not in the ledger yet, each pending and due now, and answers the ledger
 * rows of all of them (new or there before): the unique key (case, addressee, channel, kind,
 * sequence) makes planning the same message twice (an event handled again, two workers) one row.
 * The rows are the durable to-do list: a worker that dies before sending leaves them due, and
 * the sweep sends them.
 */
export async function planMessages(
  db: Kysely<Database> | Transaction<Database>,
  planned: readonly PlannedMessage[],
  now: Date,
): Promise<string[]> {
  if (planned.length === 0) return [];
  const made = await db
    .insertInto('messages')
    .values(planned.map((m) => ledgerValues(m, now)))
    .onConflict((oc) =>
      oc.columns(['case_id', 'addressee', 'channel', 'kind', 'sequence']).doNothing(),
    )
    .returning(['id', 'addressee', 'channel', 'kind', 'sequence'])
    .execute();
  // Every one new (the usual case): no second statement to find the ones there before.
  const rows =
    made.length === planned.length
      ? made
      : await db
          .selectFrom('messages')
          .select(['id', 'addressee', 'channel', 'kind', 'sequence'])
          .where('case_id', '=', planned[0]!.caseId)
          .where(
            'addressee',
            'in',
            planned.map((m) => addresseeOf(m)),
          )
          .execute();
  // In the order planned (the recipients' order): the first group's first signer hears first.
  const byKey = new Map(
    rows.map((r) => [`${r.addressee}|${r.channel}|${r.kind}|${r.sequence}`, r.id]),
  );
  return planned.flatMap((m) => {
    const id = byKey.get(`${addresseeOf(m)}|${m.channel}|${m.kind}|${m.sequence}`);
    return id ? [id] : [];
  });
}

/** A planned message's ledger row: claimed by this call when it made the row, else its id. */
export interface PlannedRow {
  id: string;
  /** The row made now, claimed for its first try (no other sender takes it meanwhile). */
  claimed?: LedgerRow;
}

const plannedCache = new WeakMap<
  Kysely<Database>,
  Map<number, StatementBatcher<PlannedBatchItem, LedgerRow[]>>
>();

interface PlannedBatchItem {
  planned: readonly PlannedMessage[];
  now: Date;
}

/**
 * planMessages for a message to be sent at once (an event's): the new rows are made claimed, their
 * first try counted, and returned whole, so that the sender needs no select and no claim; with
 * the other events' messages of the batch in one statement. A row there before (the event
 * handled again) answers its id only: the sender claims it as any other.
 */
export async function planClaimedMessages(
  db: Kysely<Database>,
  planned: readonly PlannedMessage[],
  now: Date,
  batchSize = 1,
): Promise<PlannedRow[]> {
  if (planned.length === 0) return [];
  const made = await batcherFor(
    plannedCache,
    db,
    batchSize,
    (max) =>
      new StatementBatcher<PlannedBatchItem, LedgerRow[]>(async (items) => {
        const rows = await db
          .insertInto('messages')
          .values(
            items.flatMap(({ planned: ms, now: at }) =>
              ms.map((m) => ({
                ...ledgerValues(m, at),
                claimed_until: new Date(at.getTime() + CLAIM_MS),
                attempts: 1,
              })),
            ),
          )
          .onConflict((oc) =>
            oc.columns(['case_id', 'addressee', 'channel', 'kind', 'sequence']).doNothing(),
          )
          .returning([...LEDGER_COLUMNS, 'addressee'])
          .execute();
        const byKey = new Map(
          rows.map((r) => [`${r.case_id}|${r.addressee}|${r.channel}|${r.kind}|${r.sequence}`, r]),
        );
        // The same message planned by two events of one batch is made once: the first gets it.
        return items.map(({ planned: ms }) =>
          ms.flatMap((m) => {
            const key = `${m.caseId}|${addresseeOf(m)}|${m.channel}|${m.kind}|${m.sequence}`;
            const r = byKey.get(key);
            if (!r) return [];
            byKey.delete(key);
            return [ledgerRow(r)];
          }),
        );
      }, max),
  ).add({ planned, now });
  const mine = new Map(made.map((r) => [keyOf(r), r]));
  const before =
    made.length === planned.length
      ? new Map<string, string>()
      : new Map(
          (
            await db
              .selectFrom('messages')
              .select(['id', 'addressee', 'channel', 'kind', 'sequence'])
              .where('case_id', '=', planned[0]!.caseId)
              .where(
                'addressee',
                'in',
                planned.map((m) => addresseeOf(m)),
              )
              .execute()
          ).map((r) => [`${r.addressee}|${r.channel}|${r.kind}|${r.sequence}`, r.id]),
        );
  // In the order planned (the recipients' order): the first group's first signer hears first.
  return planned.flatMap((m): PlannedRow[] => {
    const key = `${addresseeOf(m)}|${m.channel}|${m.kind}|${m.sequence}`;
    const claimed = mine.get(key);
    if (claimed) return [{ id: claimed.id, claimed }];
    const id = before.get(key);
    return id ? [{ id }] : [];
  });
}

const keyOf = (r: LedgerRow) => `${r.recipientId ?? 'sender'}|${r.channel}|${r.kind}|${r.sequence}`;

function ledgerValues(m: PlannedMessage, now: Date) {
  return {
    company_id: m.company,
    case_id: m.caseId,
    recipient_id: m.recipientId,
    addressee: addresseeOf(m),
    channel: m.channel,
    kind: m.kind,
    sequence: m.sequence,
    to_address: m.toAddress,
    next_attempt_at: now,
    created_at: now,
  };
}

/**
 * planMessages for a web-flow's messages, all of one flow: new ones pending and due now, the
 * ones there before (the same reminder planned twice) kept as they are; answers the ids of all,
 * in the order planned. The flow's creation writes its invitations in its own transaction
 * (service/webflows' create-webflow.ts, with the same key), and the schedule its reminders.
 */
export async function planFlowMessages(
  db: Kysely<Database> | Transaction<Database>,
  planned: readonly PlannedFlowMessage[],
  now: Date,
): Promise<string[]> {
  if (planned.length === 0) return [];
  await db
    .insertInto('messages')
    .values(planned.map((m) => flowMessageRow(m, now)))
    .onConflict((oc) =>
      oc.columns(['flow_id', 'addressee', 'channel', 'kind', 'sequence']).doNothing(),
    )
    .execute();
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'addressee', 'kind', 'sequence'])
    .where('flow_id', '=', planned[0]!.flowId)
    .where(
      'addressee',
      'in',
      planned.map((m) => m.flowRecipientId),
    )
    .where('channel', '=', 'email')
    .execute();
  const byKey = new Map(rows.map((r) => [`${r.addressee}|${r.kind}|${r.sequence}`, r.id]));
  return planned.flatMap((m) => {
    const id = byKey.get(`${m.flowRecipientId}|${m.kind}|${m.sequence}`);
    return id ? [id] : [];
  });
}

/** The ledger row of a web-flow's message: its person is its addressee, e-mail its channel. */
export function flowMessageRow(m: PlannedFlowMessage, now: Date) {
  return {
    company_id: m.company,
    flow_id: m.flowId,
    flow_recipient_id: m.flowRecipientId,
    addressee: m.flowRecipientId,
    channel: 'email' as const,
    kind: m.kind,
    sequence: m.sequence,
    to_address: m.toAddress,
    next_attempt_at: now,
    created_at: now,
  };
}

/**
 * Takes a due message for sending: counts the try and holds the row for CLAIM_MS. Undefined
 * when it is not due (sent, failed without tries left, waiting for its next try) or another
 * sender holds it.
 */
export async function claimMessage(
  db: Kysely<Database>,
  id: string,
  now: Date,
): Promise<LedgerRow | undefined> {
  const row = await db
    .updateTable('messages')
    .set({
      claimed_until: new Date(now.getTime() + CLAIM_MS),
      attempts: sql<number>`attempts + 1`,
    })
    .where('id', '=', id)
    .where('status', '<>', 'sent')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning(LEDGER_COLUMNS)
    .executeTakeFirst();
  return row ? ledgerRow(row) : undefined;
}

/** The rows as they are, for a report of messages another sender holds or sent before. */
export async function readMessages(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<LedgerRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select(LEDGER_COLUMNS)
    .where('id', 'in', ids)
    .execute();
  return rows.map(ledgerRow);
}

/** The ids of messages due now that nobody holds: the sweep's work. */
export async function dueMessages(
  db: Kysely<Database>,
  now: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('next_attempt_at', '<=', now)
    .where('status', '<>', 'sent')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Records a sent message. */
export async function markSent(
  trx: Kysely<Database> | Transaction<Database>,
  id: string,
  location: string | undefined,
  now: Date,
): Promise<void> {
  await markAllSent(trx, [{ id, location, at: now }]);
}

/** Ledger rows sent, each with where it went and when, by one statement. */
export async function markAllSent(
  trx: Kysely<Database> | Transaction<Database>,
  sent: readonly { id: string; location: string | undefined; at: Date }[],
): Promise<void> {
  if (sent.length === 0) return;
  await sql`update messages set status = 'sent', sent_at = v.at, location = v.location,
      error = null, claimed_until = null, next_attempt_at = null
    from (values ${sql.join(
      sent.map((r) => sql`(${r.id}::uuid, ${r.at}::timestamptz, ${r.location ?? null}::text)`),
    )}) as v(id, at, location)
    where messages.id = v.id`.execute(trx);
}

/**
 * Records a failed try: tried again after a wait while tries are left and the failure may pass,
 * else failed for good (a channel not configured, no address, a permanent SMTP refusal).
 */
export async function markFailed(
  db: Kysely<Database>,
  row: Pick<LedgerRow, 'id' | 'attempts'>,
  error: string,
  permanent: boolean,
  now: Date,
): Promise<void> {
  const retry = !permanent && row.attempts < MAX_MESSAGE_ATTEMPTS;
  const wait = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1] ?? 60_000;
  await db
    .updateTable('messages')
    .set({
      status: 'failed',
      error,
      claimed_until: null,
      next_attempt_at: retry ? new Date(now.getTime() + wait) : null,
    })
    .where('id', '=', row.id)
    .execute();
}

function ledgerRow(r: {
  id: string;
  company_id: string;
  case_id: string | null;
  recipient_id: string | null;
  flow_id: string | null;
  flow_recipient_id: string | null;
  channel: ChannelName;
  kind: MessageKind;
  sequence: number;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  error: string | null;
  location: string | null;
}): LedgerRow {
  return {
    id: r.id,
    company: r.company_id,
    caseId: r.case_id,
    recipientId: r.recipient_id,
    flowId: r.flow_id,
    flowRecipientId: r.flow_recipient_id,
    channel: r.channel,
    kind: r.kind,
    sequence: r.sequence,
    status: r.status,
    attempts: r.attempts,
    error: r.error,
    location: r.location,
  };
}
