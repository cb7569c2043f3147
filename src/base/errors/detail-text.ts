import type { FailureDetail } from './failure-detail.js';

/**
 * A detail as one line: `field: message`, or the message alone when it begins by naming the field
 * already. Value messages name their TagInput (`documents[0].tags[0] (start_date): not a date`
 * for the field `documents[0].tags[0].value`): putting the field before them would give the path
 * twice.
 */
export function detailText(d: FailureDetail): string {
  if (!d.field) return d.message;
  return namesField(d.message, d.field) ? d.message : `${d.field}: ${d.message}`;
}

/** Whether the message's first word is the field, or the field's owner (`a[0]` of `a[0].value`). */
function namesField(message: string, field: string): boolean {
  const head = /^[^\s:(]+/.exec(message)?.[0];
  if (head === undefined) return false;
  return field === head || field.startsWith(`${head}.`) || field.startsWith(`${head}[`);
}
