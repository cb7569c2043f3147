import { unsupported, type PdfSniff, type UnsupportedSniff } from './sniff-result.js';

const HEADER = Buffer.from('%PDF-');
/** How far a stray header is looked for, only to say so in the message. */
const HEADER_SEARCH = 1024;
/** Writers append a little after %%EOF (line ends, NULs); more than this is not a PDF's end. */
const TAIL = 2048;

/** Whether the bytes start with `%PDF-` at offset 0, which is what makes them a PDF to sniffing. */
export function startsAsPdf(bytes: Uint8Array): boolean {
  return bytes.length >= HEADER.length && HEADER.every((byte, i) => bytes[i] === byte);
}

/** Where a `%PDF-` header sits past offset 0, if it does, to explain the refusal. */
export function misplacedPdfHeader(bytes: Buffer): number {
  const at = bytes.subarray(0, HEADER_SEARCH).indexOf(HEADER);
  return at > 0 ? at : -1;
}

/**
 * Policy: a PDF starts with `%PDF-` at offset 0 and ends with `startxref` and `%%EOF` in its
 * last 2 KiB; anything else is damaged. Viewers repair worse, but a signing service should not
 * accept a file whose readers may disagree on its content. An encryption dictionary in any
 * trailer refuses the file, whatever its passwords: a signed document must be readable by all.
 */
export function probePdf(bytes: Buffer): PdfSniff | UnsupportedSniff {
  const headerLine = bytes.subarray(0, 16).toString('latin1');
  const version = /^%PDF-(\d\.\d)/.exec(headerLine)?.[1];
  if (!version) return unsupported('damaged', 'PDF header has no version number');
  const tail = bytes.subarray(Math.max(0, bytes.length - TAIL)).toString('latin1');
  if (!tail.includes('%%EOF')) return unsupported('damaged', 'PDF has no %%EOF marker at its end');
  if (!tail.includes('startxref')) return unsupported('damaged', 'PDF has no startxref at its end');
  if (hasEncryptionDictionary(bytes)) {
    return unsupported('encrypted', 'PDF is encrypted (its trailer has an /Encrypt entry)');
  }
  return { kind: 'pdf', version };
}

const ENCRYPT = Buffer.from('/Encrypt');

/**
 * Whether some trailer or cross-reference stream dictionary holds /Encrypt. Both kinds always
 * carry /Size, and neither is ever compressed, so a byte scan finds them.
 */
function hasEncryptionDictionary(bytes: Buffer): boolean {
  let at = bytes.indexOf(ENCRYPT);
  while (at !== -1) {
    const next = bytes[at + ENCRYPT.length];
    // '/EncryptMetadata' is another key; a name ends at whitespace or a delimiter.
    if (next === undefined || !isRegularChar(next)) {
      const dict = enclosingDictionary(bytes, at);
      if (dict && /\/Size[\s/\d]/.test(dict)) return true;
    }
    at = bytes.indexOf(ENCRYPT, at + ENCRYPT.length);
  }
  return false;
}

function isRegularChar(c: number): boolean {
  const delimiters = '()<>[]{}/%';
  return c > 0x20 && c < 0x7f && !delimiters.includes(String.fromCharCode(c));
}

/** Text of the innermost `<< ... >>` around a position, within a few KiB. */
function enclosingDictionary(bytes: Buffer, position: number): string | undefined {
  const windowStart = Math.max(0, position - 4096);
  const before = bytes.subarray(windowStart, position).toString('latin1');
  let depth = 0;
  let start = -1;
  for (let i = before.length - 1; i > 0; i--) {
    const pair = before.slice(i - 1, i + 1);
    if (pair === '>>') {
      depth++;
      i--;
    } else if (pair === '<<') {
      if (depth === 0) {
        start = i - 1;
        break;
      }
      depth--;
      i--;
    }
  }
  if (start === -1) return undefined;
  const after = bytes
    .subarray(position, Math.min(bytes.length, position + 4096))
    .toString('latin1');
  depth = 0;
  for (let i = 0; i < after.length - 1; i++) {
    const pair = after.slice(i, i + 2);
    if (pair === '<<') {
      depth++;
      i++;
    } else if (pair === '>>') {
      if (depth === 0) return before.slice(start) + after.slice(0, i + 2);
      depth--;
      i++;
    }
  }
  return undefined;
}
