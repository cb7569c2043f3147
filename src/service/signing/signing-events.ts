import type { Transaction } from 'kysely';
import { writeCaseEvent } from '../cases/index.js';
import type { Database } from '../db/index.js';

export const RECIPIENT_SIGNED = 'recipient.signed';
export const CASE_DENIED = 'case.denied';
export const CASE_SIGNED = 'case.signed';

/** What every signing event says of its case (spec 6: `_id` and `updatedAt` key deduplication). */
export interface EventCase {
  _id: string;
  title: string;
  state: string;
  activeGroup: number | null;
  updatedAt: string;
}

/**
 * The case as an event says it, at the moment of the change; writeSigningEvent sets the case's
 * status read in the transaction over it, so that these are what the case's rows say.
 */
export function eventCase(
  id: string,
  title: string,
  state: string,
  activeGroup: number | null,
  at: Date,
): EventCase {
  return { _id: id, title, state, activeGroup, updatedAt: at.toISOString() };
}

/** What it says of the recipient who acted. */
export interface EventRecipient {
  id: string;
  uid: string;
  name: string;
  status: 'signed' | 'denied';
  method?: string;
  at: string;
}

/**
 * Writes an event in the transaction that makes its change (the outbox the relay publishes
 * from), its payload fixed now, so that every delivery carries the same body. Its `case` is the
 * case's status as the transaction sees it (writeCaseEvent: the same view as every event and
 * the read), with what `payload.case` adds; the rest of `payload` is this event's own.
 */
export async function writeSigningEvent(
  trx: Transaction<Database>,
  company: string,
  caseId: string,
  trigger: string,
  payload: Record<string, unknown>,
  at: Date,
): Promise<void> {
  const { case: caseExtra, ...extra } = payload;
  await writeCaseEvent(trx, {
    company,
    caseId,
    trigger,
    at,
    caseExtra: (caseExtra ?? {}) as Record<string, unknown>,
    extra,
  });
}
