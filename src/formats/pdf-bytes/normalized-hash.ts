import { createHash } from 'node:crypto';

/**
 * What LibreOffice writes differently each time it converts the same document: the moments in
 * the document information (`/CreationDate`, `/ModDate`), the file identifier (`/ID`), the
 * trailer's `/DocChecksum` (an MD5 over the file, dates included: it differs whenever the two
 * conversions fall in different seconds), and the XMP packet's dates and UUIDs. Each is blanked to the same length (so that offsets, and with
 * them the cross-reference table, stay as they were) before hashing.
 */
const VARYING: readonly RegExp[] = [
  /\/(?:CreationDate|ModDate)\s*\((?:[^()\\]|\\.)*\)/g,
  /\/ID\s*\[\s*<[0-9A-Fa-f\s]*>\s*<[0-9A-Fa-f\s]*>\s*\]/g,
  /\/DocChecksum\s*\/[0-9A-Fa-f]+/g,
  /<xmp:(?:CreateDate|ModifyDate|MetadataDate)>[^<]*<\/xmp:(?:CreateDate|ModifyDate|MetadataDate)>/g,
  /<xmpMM:(?:DocumentID|InstanceID)>[^<]*<\/xmpMM:(?:DocumentID|InstanceID)>/g,
  /uuid:[0-9a-fA-F-]{36}/g,
];

/**
 * A SHA-256 of a PDF that ignores what varies between two conversions of the same template with
 * the same values, so that the evidence says "the same document" when it is. Byte-level:
 * LibreOffice writes these entries uncompressed; what a PDF keeps inside compressed streams is
 * hashed as it is.
 */
export function normalizedPdfHash(pdf: Uint8Array): string {
  let text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  for (const pattern of VARYING) text = text.replace(pattern, (m) => ' '.repeat(m.length));
  return createHash('sha256').update(text, 'latin1').digest('hex');
}
