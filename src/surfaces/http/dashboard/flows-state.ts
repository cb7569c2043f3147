import type { WebflowRecipientStatus, WebflowState } from '../../../service/db/index.js';
import type { Words } from '../pages/index.js';

/** A flow's state in words, as the list and the flow's page both say it. */
export function flowStateText(w: Words['flows'], state: WebflowState): string {
  const text: Record<WebflowState, string> = {
    pending: w.statePending,
    in_progress: w.stateInProgress,
    completed: w.stateCompleted,
    expired: w.stateExpired,
  };
  return text[state];
}

/** A person's status on a flow in words. */
export function recipientStatusText(w: Words['flows'], status: WebflowRecipientStatus): string {
  const text: Record<WebflowRecipientStatus, string> = {
    pending: w.statusPending,
    opened: w.statusOpened,
    answered: w.statusAnswered,
  };
  return text[status];
}

/** A flow's page. */
export function flowHref(id: string): string {
  return `/dashboard/flows/${encodeURIComponent(id)}`;
}

export const FLOWS_PATH = '/dashboard/flows';
