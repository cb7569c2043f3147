import type { FailureDetail } from '../../base/errors/index.js';
import { readerTextProblem } from '../../document/values/index.js';

/**
 * A text a signer gives that others will read (a typed name, a reason for denying): trimmed and
 * in NFC, refused when empty, too long, or holding a control character or a bidi control (which
 * would reorder what the sender or the audit trail shows, as in values). Shown escaped, always;
 * this check is about what it says, not about markup.
 */
export function shownText(
  value: unknown,
  field: string,
  maxChars: number,
): { text: string } | { problem: FailureDetail } {
  if (typeof value !== 'string') return { problem: { field, message: 'must be a text' } };
  const text = value.normalize('NFC').trim();
  if (text.length === 0) return { problem: { field, message: 'is empty' } };
  if (Array.from(text).length > maxChars)
    return { problem: { field, message: `is longer than ${maxChars} characters` } };
  // The same characters a case's own texts may not hold (document/values reader-text.ts).
  const problem = readerTextProblem(text);
  if (problem) return { problem: { field, message: problem } };
  return { text };
}
