/**
 * `createdAfter` of GET /v3/api/cases (spec 4.4: an ISO 8601 date or date-time). A date is
 * midnight UTC of that day. A date-time needs its offset (`Z`, `+02:00`): ISO 8601 lets one
 * leave it out and mean "local time", but whose? The server's clock zone is nothing a caller
 * should depend on, so such a value is refused with the reason rather than read in UTC.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** The moment, or what is wrong with the value, said after its parameter's name. */
export function parseCreatedAfter(text: string): Date | { problem: string } {
  const date = DATE.exec(text);
  if (date) {
    const [, y, m, d] = date;
    return realDate(+y!, +m!, +d!)
      ? new Date(Date.UTC(+y!, +m! - 1, +d!))
      : { problem: `names no day of the calendar (got ${JSON.stringify(text)})` };
  }
  const time = DATE_TIME.exec(text);
  if (!time)
    return {
      problem: `must be an ISO 8601 date (2026-05-01) or date-time (2026-05-01T12:00:00Z) (got ${JSON.stringify(text)})`,
    };
  const [, y, m, d, hh, mm, ss, , offset] = time;
  if (!realDate(+y!, +m!, +d!) || +hh! > 23 || +mm! > 59 || +(ss ?? 0) > 59)
    return { problem: `names no moment of the calendar (got ${JSON.stringify(text)})` };
  if (offset === undefined)
    return {
      problem: `needs its offset, Z for UTC or one like +02:00 (got ${JSON.stringify(text)})`,
    };
  const moment = new Date(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(moment.getTime())
    ? { problem: `names no moment of the calendar (got ${JSON.stringify(text)})` }
    : moment;
}

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}
