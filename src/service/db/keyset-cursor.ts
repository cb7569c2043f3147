import { sql, type RawBuilder } from 'kysely';

/**
 * Keyset paging of a list newest first, on (created_at desc, id desc) through an index on
 * (company_id, created_at, id), so that a page costs the same far down the list as at its top:
 * the dashboard's case list and its web-flow list. The cursor names the last row's created_at
 * to the microsecond (a Date only has milliseconds, and rows made in one millisecond would be
 * skipped) and its id, as opaque base64url.
 */
export interface KeysetCursor {
  /** created_at in UTC to the microsecond, as keysetCursorAt reads it. */
  at: string;
  id: string;
}

function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor that is not one of ours reads as none: the list starts again at the newest. */
export function decodeKeysetCursor(cursor: string): KeysetCursor | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !at || !id || !CURSOR_AT.test(at) || !UUID.test(id)) return undefined;
  return { at, id };
}

/** A row's cursor time, to select as `cursor_at`: `column` (a timestamptz) to the microsecond. */
export function keysetCursorAt(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The rows after the cursor's in the list's order: older, or as old with a lower id. */
export function olderThanCursor(
  after: KeysetCursor,
  columns: { createdAt: string; id: string },
): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(columns.createdAt)}, ${sql.ref(columns.id)}) < (${after.at}::timestamptz, ${after.id}::uuid)`;
}

/**
 * The page of rows read with `limit + 1` (the one more tells whether a next page exists), and
 * the cursor of the next page when it does.
 */
export function keysetPage<Row extends { id: string; cursor_at: string }>(
  rows: readonly Row[],
  limit: number,
): { rows: Row[]; next: string | undefined } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    next: rows.length > limit && last ? encodeCursor(last.cursor_at, last.id) : undefined,
  };
}
