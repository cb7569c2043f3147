import { attempted, deliveryOf, notAttempted, type ChannelReport } from '../cases/index.js';
import type { EventDeps, FlowEvent } from './event-deps.js';
import type { EventOutcome } from './event-queue.js';
import { channelsNot, combined } from './event-report.js';
import { WORKFLOW_COMPLETED, WORKFLOW_CREATED } from './event-triggers.js';
import { readFlowContext } from './flow-context.js';
import { planFlowMessages } from './message-ledger.js';
import { sendMessages } from './send-messages.js';

/**
 * Handles a web-flow's event from the outbox. `workflow.created`: the flow's invitations,
 * planned in the ledger when the flow was made, are sent now (whichever are still due; the
 * ledger sends each once). `workflow.completed`: the company's webhooks that receive it, then
 * the hook that makes the flow's case (EventDeps.onFlowCompleted). A flow's event plans no
 * case messages. Answers the first delivery over each channel, as a case's event does.
 */
export async function handleFlowEvent(deps: EventDeps, event: FlowEvent): Promise<EventOutcome> {
  switch (event.trigger) {
    case WORKFLOW_CREATED:
      return deliveryOf({
        ...channelsNot('a web-flow asks by e-mail only'),
        email: await sendInvitations(deps, event),
        webhook: notAttempted(`no webhook receives ${WORKFLOW_CREATED}`),
      });
    case WORKFLOW_COMPLETED: {
      const webhook = await deps.webhooks
        .dispatch(event)
        .catch((err: unknown) => attempted({ ok: false, error: (err as Error).message }));
      // After the webhooks: a case that fails to be made (and is retried) delays none of them.
      await deps.onFlowCompleted?.({
        company: event.company,
        flowId: event.flowId,
        eventId: event.id,
      });
      return deliveryOf({ ...channelsNot(`nothing is sent on ${event.trigger}`), webhook });
    }
    default: {
      // A flow trigger delivery does not know: its webhooks only, should any receive it.
      const webhook = await deps.webhooks
        .dispatch(event)
        .catch((err: unknown) => attempted({ ok: false, error: (err as Error).message }));
      return deliveryOf({ ...channelsNot(`nothing is sent on ${event.trigger}`), webhook });
    }
  }
}

/**
 * The flow's invitations, one per person, planned in the ledger (a second handling of the event
 * finds them there and plans none again), then sent: each goes once, and one that fails is
 * retried by the schedule as a case's messages are.
 */
async function sendInvitations(deps: EventDeps, event: FlowEvent): Promise<ChannelReport> {
  const flow = await readFlowContext(deps.db, event.company, event.flowId);
  if (!flow) return notAttempted('the web-flow was deleted before its invitations were sent');
  const ids = await planFlowMessages(
    deps.db,
    flow.people.map((p) => ({
      company: event.company,
      flowId: flow.id,
      flowRecipientId: p.id,
      kind: 'flow-invitation' as const,
      sequence: 0,
      toAddress: p.email,
    })),
    deps.now(),
  );
  if (ids.length === 0) return notAttempted('the web-flow asks nobody');
  return attempted(combined(await sendMessages(deps, ids)));
}
