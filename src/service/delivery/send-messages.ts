import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import {
  caseStatusOf,
  readRecipientStatuses,
  signingTokenFor,
  signingUrl,
  writeCaseEvent,
} from '../cases/index.js';
import type { Database } from '../db/index.js';
import type { ChannelResult, MessageChannels, OutgoingMessage } from '../messages/index.js';
import type { Storage } from '../../render/storage/index.js';
import { readCaseContext, type CaseContext, type ContextRecipient } from './case-context.js';
import { RECIPIENT_INVITED, RECIPIENT_REMINDED } from './event-triggers.js';
import { readFlowContext, type FlowContext } from './flow-context.js';
import { FlowMessageRefused, flowMessageOf } from './flow-messages.js';
import { StatementBatcher, batcherFor } from '../webhooks/index.js';
import {
  claimMessage,
  markAllSent,
  markFailed,
  markSent,
  readMessages,
  type LedgerRow,
} from './message-ledger.js';

export interface MessageDeps {
  db: Kysely<Database>;
  channels: Pick<MessageChannels, 'email' | 'sms' | 'eboks'>;
  /** The installation's signing secret: the links are written again from it (signingTokenFor). */
  signingSecret: string;
  /**
   * The public URL of the signing pages, when the company has no signing domain of its own: asked
   * at each message, as `docpipe start` on a free port knows it only once HTTP listens.
   */
  publicUrl: () => string;
  /** A download URL of a stored case document (the signed copy's links). */
  documentUrl: (key: string, name: string) => string | Promise<string>;
  storage: Pick<Storage, 'get'>;
  logger?: Logger;
  now: () => Date;
  /**
   * Rows read and written together (`DOCPIPE_DELIVERY_BATCH`): the cases of a batch of events,
   * their ledger rows, the sent messages' records. @defaultValue 1
   */
  batchSize?: number;
}

/** What became of one ledger row. */
export interface SentMessage {
  row: LedgerRow;
  result: ChannelResult;
}

/**
 * Sends ledger rows (message-ledger.ts): each claimed first, so that no row goes out twice; a
 * row another sender holds, or sent before, answers what the ledger says of it. A sent
 * invitation or reminder is recorded with its event (`recipient.invited`,
 * `recipient.reminded`) in one transaction, the case's `updatedAt` moved on so that the event's
 * deduplication key is its own. A web-flow's rows (its invitations and reminders) are sent the
 * same way and recorded sent; they have no events of their own.
 */
export async function sendMessages(
  deps: MessageDeps,
  ids: readonly string[],
  /** The case the messages are of, when the caller has read it already. */
  known?: CaseContext,
  /** Rows the caller made claimed (planClaimedMessages): sent without a claim of their own. */
  claimedNow?: ReadonlyMap<string, LedgerRow>,
): Promise<SentMessage[]> {
  const out: SentMessage[] = [];
  const contexts = new Map<string, Promise<CaseContext | undefined>>(
    known ? [[known.id, Promise.resolve(known)]] : [],
  );
  const contextOf = (row: LedgerRow, caseId: string) => {
    let c = contexts.get(caseId);
    if (!c) {
      c = readCaseContext(deps.db, row.company, caseId, deps.batchSize);
      contexts.set(caseId, c);
    }
    return c;
  };
  const flows = new Map<string, Promise<FlowContext | undefined>>();
  const flowOf = (row: LedgerRow, flowId: string) => {
    let c = flows.get(flowId);
    if (!c) {
      c = readFlowContext(deps.db, row.company, flowId);
      flows.set(flowId, c);
    }
    return c;
  };
  // One message at a time per call: a case has a handful; many cases are many calls at once.
  for (const id of ids) {
    const claimed = claimedNow?.get(id) ?? (await claimMessage(deps.db, id, deps.now()));
    if (!claimed) {
      const [row] = await readMessages(deps.db, [id]);
      if (row) out.push({ row, result: reported(row) });
      continue;
    }
    const { caseId, flowId } = claimed;
    const result =
      flowId !== null
        ? await sendFlowOne(deps, claimed, await flowOf(claimed, flowId))
        : caseId !== null
          ? await sendOne(deps, { ...claimed, caseId }, await contextOf(claimed, caseId))
          : await failed(deps, claimed, 'the message belongs to no case and no web-flow', true);
    out.push({ row: claimed, result });
  }
  return out;
}

/** What a row not sent by this call says: sent, failed with its error, or still on its way. */
function reported(row: LedgerRow): ChannelResult {
  if (row.status === 'sent')
    return { ok: true, ...(row.location ? { location: row.location } : {}) };
  if (row.status === 'failed') return { ok: false, error: row.error ?? 'not sent' };
  return { ok: false, error: 'being sent by another worker' };
}

/** Records a try that failed, and logs it: the case or flow, kind and channel, never the link. */
async function failed(
  deps: MessageDeps,
  row: LedgerRow,
  error: string,
  permanent: boolean,
): Promise<ChannelResult> {
  await markFailed(deps.db, row, error, permanent, deps.now());
  deps.logger?.warn(
    {
      ...(row.flowId !== null ? { flow: row.flowId } : { case: row.caseId }),
      kind: row.kind,
      channel: row.channel,
      attempt: row.attempts,
      error,
    },
    'a message was not sent',
  );
  return { ok: false, error };
}

/** A channel's send, its throw as its failure, and whether that failure is for good. */
async function sendOver(
  deps: MessageDeps,
  row: LedgerRow,
  message: OutgoingMessage,
): Promise<{ result: ChannelResult; permanent: boolean }> {
  const channel = deps.channels[row.channel];
  let result: ChannelResult;
  try {
    result = await channel.send(message);
  } catch (err) {
    result = { ok: false, error: (err as Error).message };
  }
  const error = result.error ?? 'not sent';
  const permanent = !channel.configured || NO_ADDRESS.test(error) || /^5\d\d\b/.test(error);
  return { result, permanent };
}

/** A web-flow's invitation or reminder: sent, or failed with why; no event follows either. */
async function sendFlowOne(
  deps: MessageDeps,
  row: LedgerRow,
  c: FlowContext | undefined,
): Promise<ChannelResult> {
  const now = deps.now();
  let message: OutgoingMessage;
  try {
    message = flowMessageOf(row, c, deps, now);
  } catch (err) {
    if (err instanceof FlowMessageRefused) return failed(deps, row, err.message, true);
    throw err;
  }
  const { result, permanent } = await sendOver(deps, row, message);
  if (!result.ok) return failed(deps, row, result.error ?? 'not sent', permanent);
  await markSent(deps.db, row.id, result.location, now);
  deps.logger?.info(
    { flow: row.flowId, kind: row.kind, channel: row.channel, location: result.location },
    'message sent',
  );
  return result;
}

async function sendOne(
  deps: MessageDeps,
  row: LedgerRow & { caseId: string },
  c: CaseContext | undefined,
): Promise<ChannelResult> {
  const now = deps.now();
  const fail = (error: string, permanent: boolean) => failed(deps, row, error, permanent);
  if (!c) return fail('the case is gone', true);
  const recipient = row.recipientId
    ? c.recipients.find((r) => r.id === row.recipientId)
    : undefined;
  if (row.recipientId && !recipient) return fail('the recipient is gone', true);
  if ((row.kind === 'invitation' || row.kind === 'reminder') && c.state !== 'open')
    return fail(`not sent: the case is ${c.state}`, true);
  let message: OutgoingMessage;
  try {
    message = await outgoing(deps, row, c, recipient);
  } catch (err) {
    if (err instanceof LinkLost) return fail(err.message, true);
    throw err;
  }
  const { result, permanent } = await sendOver(deps, row, message);
  if (!result.ok) return fail(result.error ?? 'not sent', permanent);
  if (row.kind === 'invitation' || row.kind === 'reminder')
    await recordSentWithEvent(deps, { row, recipient: recipient!, location: result.location, now });
  else await markSent(deps.db, row.id, result.location, now);
  deps.logger?.info(
    { case: row.caseId, kind: row.kind, channel: row.channel, location: result.location },
    'message sent',
  );
  return result;
}

/** A sent invitation or reminder to record. */
interface SentRecord {
  row: LedgerRow & { caseId: string };
  recipient: ContextRecipient;
  location: string | undefined;
  now: Date;
}

const sentCache = new WeakMap<Kysely<Database>, Map<number, StatementBatcher<SentRecord, void>>>();

/** recordSentWithEvent, batched with the other messages sent meanwhile (one transaction). */
function recordSentWithEvent(deps: MessageDeps, record: SentRecord): Promise<void> {
  const { db } = deps;
  return batcherFor(
    sentCache,
    db,
    deps.batchSize ?? 1,
    // One lane: two such transactions never lock each other's cases in opposite orders.
    (max) => new StatementBatcher<SentRecord, void>((records) => recordSent(db, records), max, 1),
  ).add(record);
}

/**
 * Sent invitations and reminders, recorded in one transaction: each case's `updatedAt` moved on
 * (a millisecond at least, under its row lock, so that two messages in one millisecond still
 * give two deduplication keys), the ledger rows sent, the recipients' `invited_at`, and each
 * message's event `recipient.invited` or `recipient.reminded` with its case's status as it now
 * is. A case with two messages in the batch is moved on once for each, one after the other.
 */
async function recordSent(db: Kysely<Database>, records: readonly SentRecord[]): Promise<void[]> {
  // Rounds in which each case is once: its second message's event follows its first's.
  const rounds: SentRecord[][] = [];
  for (const r of records) {
    const round = rounds.find((x) => !x.some((o) => o.row.caseId === r.row.caseId));
    if (round) round.push(r);
    else rounds.push([r]);
  }
  await db.transaction().execute(async (trx) => {
    for (const round of rounds) {
      // The cases' rows first, as signing and denying take them before their recipients' rows:
      // taken in the other order the two would wait for each other.
      const moved = (
        await sql<Parameters<typeof caseStatusOf>[0]>`update cases
          set updated_at = greatest(v.at, cases.updated_at + interval '1 millisecond')
          from (values ${sql.join(
            round.map(
              (r) => sql`(${r.row.company}::text, ${r.row.caseId}::uuid, ${r.now}::timestamptz)`,
            ),
          )}) as v(company, id, at)
          where cases.company_id = v.company and cases.id = v.id
          returning cases.id, cases.title, cases.state, cases.reference_id, cases.active_group,
            cases.expires_at, cases.updated_at`.execute(trx)
      ).rows;
      await markAllSent(
        trx,
        round.map((r) => ({ id: r.row.id, location: r.location, at: r.now })),
      );
      // A case deleted meanwhile: the message went, and there is no case to tell of.
      const there = new Map(moved.map((m) => [m.id, m]));
      const told = round.filter((r) => there.has(r.row.caseId));
      const invited = told.filter((r) => r.row.kind === 'invitation');
      if (invited.length > 0)
        await sql`update recipients set invited_at = v.at
          from (values ${sql.join(
            invited.map((r) => sql`(${r.recipient.id}::uuid, ${r.now}::timestamptz)`),
          )}) as v(id, at)
          where recipients.id = v.id`.execute(trx);
      for (const r of told)
        await writeCaseEvent(trx, {
          company: r.row.company,
          caseId: r.row.caseId,
          trigger: r.row.kind === 'invitation' ? RECIPIENT_INVITED : RECIPIENT_REMINDED,
          at: r.now,
          // The case as its update returned it (no read of its own), its recipients read now.
          status: caseStatusOf(
            there.get(r.row.caseId)!,
            await readRecipientStatuses(trx, r.row.company, r.row.caseId),
          ),
          extra: {
            recipient: { id: r.recipient.id, name: r.recipient.name },
            channel: r.row.channel,
            ...(r.row.kind === 'reminder' ? { reminder: r.row.sequence } : {}),
          },
        });
    }
  });
  return records.map(() => undefined);
}

/** A channel's answer for a person it cannot reach: not worth another try. */
const NO_ADDRESS = /has no (e-mail address|phone)/i;

/** The link cannot be written again: the token was not derived from this secret. */
class LinkLost extends Error {}

async function outgoing(
  deps: MessageDeps,
  row: LedgerRow & { caseId: string },
  c: CaseContext,
  recipient: ContextRecipient | undefined,
): Promise<OutgoingMessage> {
  const templateId = recipient?.messageTemplateId ?? c.messageTemplateId;
  const template =
    templateId && (row.kind === 'invitation' || row.kind === 'reminder')
      ? await deps.db
          .selectFrom('message_templates')
          .select(['subject', 'body'])
          .where('company_id', '=', c.company.id)
          .where('id', '=', templateId)
          .executeTakeFirst()
      : undefined;
  const base: OutgoingMessage = {
    id: row.id,
    kind: row.kind,
    language: c.language,
    to: recipient
      ? { name: recipient.name, email: recipient.email, phone: recipient.phone }
      : { name: c.sender.name, email: c.sender.email },
    company: { name: c.company.name },
    sender: c.sender,
    case: {
      id: c.id,
      title: c.title,
      referenceId: c.referenceId,
      expiresAt: c.expiresAt,
      message: c.message,
    },
    template: template ?? null,
  };
  if (row.kind === 'invitation' || row.kind === 'reminder') {
    const { token, hash } = signingTokenFor(deps.signingSecret, recipient!.id);
    if (!hash.equals(recipient!.tokenHash))
      throw new LinkLost(
        'the signing link cannot be written again: the case was made with another signing secret (DOCPIPE_SIGNING_SECRET changed); the link the case was created with still works',
      );
    return {
      ...base,
      signingUrl: signingUrl(c.company.signingDomain, deps.publicUrl(), token),
      ...(row.kind === 'reminder'
        ? { reminder: { number: row.sequence, of: c.reminders.amount } }
        : {}),
    };
  }
  if (row.kind === 'signed-copy') return { ...base, documents: await signedDocuments(deps, c) };
  const denier = c.recipients.find((r) => r.status === 'denied');
  return { ...base, denial: { by: denier?.name ?? '', reason: denier?.denialReason ?? null } };
}

/** The sealed PDFs of a signed case (a document kept by reference is linked as given). */
async function signedDocuments(
  deps: MessageDeps,
  c: CaseContext,
): Promise<NonNullable<OutgoingMessage['documents']>> {
  const rows = await deps.db
    .selectFrom('case_documents')
    .select(['name', 'url', 'storage_key', 'sealed_storage_key', 'sealed_bytes', 'bytes'])
    .where('company_id', '=', c.company.id)
    .where('case_id', '=', c.id)
    .orderBy('index')
    .execute();
  return Promise.all(
    rows.map(async (d) => {
      const key = d.sealed_storage_key ?? d.storage_key;
      const name = `${d.name.replace(/\.(docx|pdf)$/i, '')}.pdf`;
      // Another host's document, signed by reference to its link: never called sealed.
      if (!key) return { name: d.name, bytes: 0, url: d.url ?? '', byReference: true };
      return {
        name,
        bytes: d.sealed_bytes ?? d.bytes ?? 0,
        url: await deps.documentUrl(key, name),
        content: async () => {
          const bytes = await deps.storage.get(key);
          if (!bytes) throw new Error(`the signed document ${name} is gone from storage`);
          return bytes;
        },
      };
    }),
  );
}
