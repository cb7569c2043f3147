/**
 * Values (names, titles, reasons) are text from API callers. In a header a CR or LF would start a
 * header of its own, and any control has no business in a subject or a display name; a bidi
 * control reorders what the reader sees (`abc\u202Egpj.exe` shows as `abcexe.jpg`). So header
 * text keeps none of them: line and paragraph separators, tabs and CR/LF become a space, the other
 * controls and the bidi controls go, and runs of spaces become one.
 */
export function headerText(value: string | null | undefined, maxChars = 400): string {
  const text = (value ?? '')
    .normalize('NFC')
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ')
    .replace(CONTROLS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return cut(text, maxChars);
}

/**
 * A value inside a message body: line breaks kept (as `\n`), every other control but the tab and
 * the bidi controls removed (a title reordered in the body misleads as much as in the subject).
 * Escaping for HTML is the HTML part's business.
 */
export function bodyText(value: string | null | undefined): string {
  return (value ?? '')
    .normalize('NFC')
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(/[\v\f]/g, '\n')
    .replace(BODY_CONTROLS, '')
    .replace(BIDI_CONTROLS, '');
}

/** At most `maxChars` characters (code points), ending in `...` when cut. */
export function cut(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  return `${chars
    .slice(0, Math.max(0, maxChars - 3))
    .join('')
    .trimEnd()}...`;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const BODY_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Embeddings, overrides and isolates, as src/document/values/bidi.ts counts them: the marks
 * (LRM, RLM, ALM) only settle neutral characters next to right-to-left text, and are kept.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
