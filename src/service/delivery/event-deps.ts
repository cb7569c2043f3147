import type { ChannelReport } from '../cases/index.js';
import type { MessageDeps } from './send-messages.js';

/** A case event as the webhooks receive it: its row, its payload fixed when it was written. */
export interface CaseEvent {
  id: string;
  company: string;
  caseId: string;
  trigger: string;
  payload: unknown;
}

/** A web-flow's event (migration 0019): no case; its payload names the flow. */
export interface FlowEvent {
  id: string;
  company: string;
  caseId: null;
  flowId: string;
  trigger: string;
  payload: unknown;
}

/**
 * The hook point where a completed web-flow becomes a signing case (issue 36: a flow created
 * with `case` makes one from its answers; service/webflows' flow-case.ts, wired by the app).
 * Called when its `workflow.completed` event is handled, after its webhooks; at least once
 * (an event may be handled again, and a throw retries it), so it must make the case once: the
 * flow's `case_id` says whether it has. A flow created without `case` is the hook's to skip.
 */
export type FlowCompletedHook = (flow: {
  company: string;
  flowId: string;
  /** The `workflow.completed` event's id. */
  eventId: string;
}) => Promise<void>;

export interface EventDeps extends MessageDeps {
  /** Fans the event out to the company's webhooks and makes each first attempt. */
  webhooks: { dispatch(event: CaseEvent | FlowEvent): Promise<ChannelReport> };
  /**
   * What follows a completed web-flow besides its webhooks: the signing case it asked for
   * (service/webflows, wired by the app). Absent: a completed flow makes no case here.
   */
  onFlowCompleted?: FlowCompletedHook;
}
