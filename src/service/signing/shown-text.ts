import type { FailureDetail } from '../../base/errors/index.js';
import { bidiControlProblem } from '../../document/values/index.js';

/** C0 and C1 controls other than tab: nothing a person types into a name or a reason. */
function hasControl(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

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
  if (hasControl(text))
    return { problem: { field, message: 'contains a control character (a line break, say)' } };
  const bidi = bidiControlProblem(text);
  if (bidi) return { problem: { field, message: bidi } };
  return { text };
}
