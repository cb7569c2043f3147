import { withoutInvisible } from '../../../document/values/index.js';

/** The longest name a download carries, in characters; a longer one is cut. */
export const DOCUMENT_NAME_MAX_CHARS = 200;

/** A UTF-16 half of a character without its other half: no UTF-8 encoding exists for it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A document's name as a download may show it. The name is data from a caller, shown by a
 * browser as a file to save, so:
 * - invisible characters go, bidi controls first (the list document values use:
 *   `win.docx\u202Efdp.exe` would show as `win.docxexe.pdf`);
 * - control characters, quotes, backslashes and path separators become `_`;
 * - it is cut to 200 characters, and an empty name (or `.`, `..`) is `document`.
 * The same cleaning serves the name an upload URL carries and every `Content-Disposition`, so a
 * URL shows the name its download will have.
 */
export function documentName(name: string): string {
  const clean = Array.from(withoutInvisible(name).replace(LONE_SURROGATE, '_'))
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '\x7f' || '"\\/'.includes(c) ? '_' : c))
    .slice(0, DOCUMENT_NAME_MAX_CHARS)
    .join('')
    .trim();
  return clean === '' || clean === '.' || clean === '..' ? 'document' : clean;
}

/**
 * `Content-Disposition: inline` with the document's name (RFC 6266): an ASCII `filename` for old
 * clients and the exact name as UTF-8 in `filename*`. The name is cleaned (documentName), and
 * ends with the stored type's extension so a saved file opens as what it is.
 */
export function contentDisposition(name: string, extension: string | undefined): string {
  let clean = documentName(name);
  if (extension && !clean.toLowerCase().endsWith(`.${extension}`)) clean = `${clean}.${extension}`;
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(clean)}`;
}

/** RFC 5987 value-chars: percent-encode everything but attr-chars. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
