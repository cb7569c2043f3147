import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/index.js';

/** The most days one extension adds: a year, the reminders' own longest spacing. */
export const MAX_EXTEND_DAYS = 365;

/**
 * Moves an open case's expiry `days` later (1 to MAX_EXTEND_DAYS; from now when the moment has
 * passed but the scheduler has not ended it yet). No event is written: the API has no change of
 * expiry, so there is no trigger a webhook could know. Undefined when the case is not the
 * company's or not open.
 */
export async function extendCaseExpiry(
  db: Kysely<Database>,
  company: string,
  id: string,
  days: number,
  now = new Date(),
): Promise<Date | undefined> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_EXTEND_DAYS) return undefined;
  const row = await db
    .updateTable('cases')
    .set({
      expires_at: sql<Date>`greatest(expires_at, ${now}) + ${`${days} days`}::interval`,
      updated_at: now,
    })
    .where('company_id', '=', company)
    .where('id', '=', id)
    .where('state', '=', 'open')
    .returning('expires_at')
    .executeTakeFirst();
  return row ? new Date(row.expires_at) : undefined;
}

/** The days as a whole number (for a form's field), else undefined. */
export function extendDaysOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,3}$/.test(text.trim())) return undefined;
  const days = Number(text.trim());
  return days >= 1 && days <= MAX_EXTEND_DAYS ? days : undefined;
}
