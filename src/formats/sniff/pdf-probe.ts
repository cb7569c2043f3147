import { hasEncryptionDictionary } from '../pdf-bytes/index.js';
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
 * trailer refuses the file, whatever its passwords and however its key is spelled (`/Encr#79pt`
 * is /Encrypt to every reader): a signed document must be readable by all.
 */
export function probePdf(bytes: Buffer): PdfSniff | UnsupportedSniff {
  const headerLine = bytes.subarray(0, 16).toString('latin1');
  const version = /^%PDF-(\d\.\d)/.exec(headerLine)?.[1];
  if (!version) return unsupported('damaged', 'PDF header has no version number');
  // Encryption first: an encrypted file that is also cut short is refused for being encrypted,
  // which a complete copy would be too.
  if (hasEncryptionDictionary(bytes)) {
    return unsupported('encrypted', 'PDF is encrypted (its trailer has an /Encrypt entry)');
  }
  const tail = bytes.subarray(Math.max(0, bytes.length - TAIL)).toString('latin1');
  if (!tail.includes('%%EOF')) return unsupported('damaged', 'PDF has no %%EOF marker at its end');
  if (!tail.includes('startxref')) return unsupported('damaged', 'PDF has no startxref at its end');
  return { kind: 'pdf', version };
}
