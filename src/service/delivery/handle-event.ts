import { EBOKS_NOT_CONFIGURED, SMS_NOT_CONFIGURED, type ChannelName } from '../messages/index.js';
import { attempted, deliveryOf, notAttempted, type ChannelReport } from '../cases/index.js';
import { readCaseContext, waitingSigners, type CaseContext } from './case-context.js';
import type { CaseEvent, EventDeps } from './event-deps.js';
import type { EventJob, EventOutcome } from './event-queue.js';
import { channelsNot, combined, notSent } from './event-report.js';
import {
  CASE_CREATED,
  CASE_DENIED,
  CASE_SENT,
  CASE_SIGNED,
  MESSAGE_TRIGGERS,
  RECIPIENT_SIGNED,
} from './event-triggers.js';
import { handleFlowEvent } from './flow-events.js';
import { readEventRow } from './event-rows.js';
import { planClaimedMessages, type PlannedMessage } from './message-ledger.js';
import { sendMessages } from './send-messages.js';

const CHANNELS: readonly ChannelName[] = ['email', 'sms', 'eboks'];

/**
 * Handles one event from the outbox: its webhooks (every trigger), and the messages it is the
 * moment for: the invitations of the signers the case now waits for (a case opened, a draft
 * sent, a group done), the signed copy to everyone when the case is sealed (its sender too,
 * unless the company's sendSignedCopyToSender is off), the denial notice
 * to the sender. Every message is planned in the ledger before it is sent, so handling an event
 * twice sends nothing twice. Answers the first delivery over each channel: spec 2.2's `delivery`
 * of the case's creation.
 */
export async function handleEvent(deps: EventDeps, job: EventJob): Promise<EventOutcome> {
  // With the other events of the batch: one statement for all their rows.
  const row = await readEventRow(deps.db, job.eventId, deps.batchSize);
  if (!row) return notSent('the case was deleted before its event was handled');
  if (row.case_id === null) {
    if (row.flow_id === null) return notSent('the event belongs to no case and no web-flow');
    // A web-flow's: its webhooks and its own work, never a case's messages.
    return handleFlowEvent(deps, {
      id: row.id,
      company: row.company_id,
      caseId: null,
      flowId: row.flow_id,
      trigger: row.trigger,
      payload: row.payload,
    });
  }
  const event: CaseEvent = {
    id: row.id,
    company: row.company_id,
    caseId: row.case_id,
    trigger: row.trigger,
    payload: row.payload,
  };
  const [webhook, messages] = await Promise.all([
    deps.webhooks
      .dispatch(event)
      .catch((err: unknown) => attempted({ ok: false, error: (err as Error).message })),
    messagesOf(deps, event),
  ]);
  return deliveryOf({ ...messages, webhook });
}

async function messagesOf(
  deps: EventDeps,
  event: CaseEvent,
): Promise<Record<ChannelName, ChannelReport>> {
  // Most events send nothing (an invitation's own event, a reminder's, an expiry): known from
  // the trigger alone, without reading the case.
  if (!MESSAGE_TRIGGERS.has(event.trigger))
    return channelsNot(`nothing is sent on ${event.trigger}`);
  // Read once here and handed to sendMessages, with the other cases of the batch.
  const c = await readCaseContext(deps.db, event.company, event.caseId, deps.batchSize);
  if (!c) return channelsNot('the case was deleted');
  const planned = plan(c, event.trigger);
  if (planned.why) return channelsNot(planned.why);
  // Made claimed and returned whole: no select and no claim before the first try.
  const rows = await planClaimedMessages(deps.db, planned.messages, deps.now(), deps.batchSize);
  const claimed = new Map(rows.flatMap((r) => (r.claimed ? [[r.id, r.claimed] as const] : [])));
  const sent = await sendMessages(
    deps,
    rows.map((r) => r.id),
    c,
    claimed,
  );
  const out = {} as Record<ChannelName, ChannelReport>;
  for (const channel of CHANNELS) {
    const mine = sent.filter((s) => s.row.channel === channel);
    out[channel] =
      mine.length > 0 ? attempted(combined(mine)) : notAttempted(unused(deps, channel));
  }
  return out;
}

/** The messages an event is the moment for, or why there are none. */
function plan(c: CaseContext, trigger: string): { messages: PlannedMessage[]; why?: string } {
  const of = (
    recipient: CaseContext['recipients'][number] | null,
    kind: PlannedMessage['kind'],
  ): PlannedMessage => {
    const channel: ChannelName = recipient ? recipient.type : 'email';
    return {
      company: c.company.id,
      caseId: c.id,
      recipientId: recipient?.id ?? null,
      channel,
      kind,
      sequence: 0,
      toAddress: recipient
        ? channel === 'sms'
          ? recipient.phone
          : channel === 'email'
            ? recipient.email
            : null
        : c.sender.email,
    };
  };
  switch (trigger) {
    case CASE_CREATED:
    case CASE_SENT:
    case RECIPIENT_SIGNED: {
      if (c.state === 'draft') return { messages: [], why: 'the case is a draft' };
      if (c.state !== 'open') return { messages: [], why: `the case is ${c.state}` };
      if (!c.autoSend) return { messages: [], why: 'the case was created with autoSend false' };
      return { messages: waitingSigners(c).map((r) => of(r, 'invitation')) };
    }
    case CASE_SIGNED:
      return {
        messages: [
          ...c.recipients.map((r) => of(r, 'signed-copy')),
          ...(senderGetsCopy(c) ? [of(null, 'signed-copy')] : []),
        ],
      };
    case CASE_DENIED:
      return { messages: [of(null, 'denial')] };
    default:
      return { messages: [], why: `nothing is sent on ${trigger}` };
  }
}

/**
 * The sender gets the signed copy too, unless the company turned that off or the sender is a
 * recipient reached by e-mail at the same address (who has theirs already).
 */
function senderGetsCopy(c: CaseContext): boolean {
  if (!c.company.sendSignedCopyToSender) return false;
  const address = c.sender.email.toLowerCase();
  return !c.recipients.some((r) => r.type === 'email' && r.email?.toLowerCase() === address);
}

/**
 * Why a channel had nothing to send for this event: nobody the event is for is reached by it,
 * and, when it is not configured, that too (as the channel itself says it).
 */
function unused(deps: EventDeps, channel: ChannelName): string {
  if (deps.channels[channel].configured || channel === 'email') return noneFor(channel);
  return `${noneFor(channel)} (${channel === 'eboks' ? EBOKS_NOT_CONFIGURED : SMS_NOT_CONFIGURED})`;
}

function noneFor(channel: ChannelName): string {
  return `no recipient the case waits for is reached by ${channel === 'email' ? 'e-mail' : channel === 'sms' ? 'SMS' : 'e-Boks'}`;
}
