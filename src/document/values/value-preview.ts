/** How much of a text value a message shows. */
const PREVIEW_CHARS = 40;

/**
 * Characters a terminal or a log viewer would not show as themselves: bidi marks and controls
 * (which would reorder the message itself), zero-width characters, C1 controls and line
 * separators. JSON.stringify already escapes C0 controls and lone surrogates.
 */
const INVISIBLE = /[\u0080-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;
const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/**
 * A text without the characters above: for a name shown where it cannot be escaped (a download's
 * file name), so that `win.docx\u202Efdp.exe` is saved as `win.docxfdp.exe`, not shown as
 * `win.docxexe.pdf`.
 */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * A value as a message shows it: text JSON-quoted, cut after 40 characters and with invisible
 * characters escaped (`"abc\u202egpj.exe"`), numbers and booleans as they are, and arrays and
 * objects by kind, never walked (a deeply nested value must not cost a deep recursion).
 */
export function previewValue(value: unknown): string {
  if (typeof value === 'string') return previewText(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return `a ${typeof value}`;
}

function previewText(text: string): string {
  const points = Array.from(
    text.length > PREVIEW_CHARS * 2 ? text.slice(0, PREVIEW_CHARS * 2) : text,
  );
  const cut = points.length > PREVIEW_CHARS || text.length > PREVIEW_CHARS * 2;
  const shown = JSON.stringify(points.slice(0, PREVIEW_CHARS).join('')).replace(
    INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return cut ? `${shown.slice(0, -1)}…"` : shown;
}

/**
 * Names a TagInput in a message: its path and, when it has one, its tag (`tags[13]
 * (pets_allowed)`), so that a message read alone still says which value it is about.
 */
export function tagLabel(at: string, tag: unknown): string {
  if (typeof tag !== 'string' || tag.trim() === '') return at;
  const name = tag.trim();
  const shown =
    name.length <= PREVIEW_CHARS && !HAS_INVISIBLE.test(name) && !/["\\\p{Cc}]/u.test(name)
      ? name
      : previewText(name);
  return `${at} (${shown})`;
}
