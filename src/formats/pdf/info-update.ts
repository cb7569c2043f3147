import { PDFDict, PDFName, PDFRef, type PDFDocument } from 'pdf-lib';
import { asBuffer } from '../../base/util/index.js';

/** A PDF text string as UTF-16BE hex with its byte order mark: any language, no escaping. */
function textString(value: string): string {
  const utf16 = Buffer.from(value, 'utf16le').swap16();
  return `<FEFF${utf16.toString('hex').toUpperCase()}>`;
}

/**
 * Appends an incremental update with a new document information dictionary (Title, Producer,
 * keeping Creator and dates), instead of rewriting the whole file: a fraction of the time, and
 * the original bytes stay as they are. Returns undefined when the file has no classic trailer to
 * extend (cross-reference streams), so that the caller saves it in full instead.
 */
export function appendInfoUpdate(
  bytes: Uint8Array,
  doc: PDFDocument,
  info: { title: string; producer: string },
): Buffer | undefined {
  const buffer = asBuffer(bytes);
  const tail = buffer.subarray(Math.max(0, buffer.length - 4096)).toString('latin1');
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1];
  if (!prev || !/\btrailer\b/.test(tail)) return undefined;
  const trailer = doc.context.trailerInfo;
  if (!(trailer.Root instanceof PDFRef)) return undefined;
  const objectNumber = doc.context.largestObjectNumber + 1;
  const entries = [`/Title ${textString(info.title)}`, `/Producer ${textString(info.producer)}`];
  const creator = doc.getCreator();
  if (creator) entries.push(`/Creator ${textString(creator)}`);
  const oldInfo = trailer.Info ? doc.context.lookup(trailer.Info) : undefined;
  const created = oldInfo instanceof PDFDict ? oldInfo.get(PDFName.of('CreationDate')) : undefined;
  if (created) entries.push(`/CreationDate ${created.toString()}`);
  const separator = buffer[buffer.length - 1] === 0x0a ? '' : '\n';
  const objectOffset = buffer.length + separator.length;
  const object = `${objectNumber} 0 obj\n<< ${entries.join(' ')} >>\nendobj\n`;
  const xrefOffset = objectOffset + Buffer.byteLength(object, 'latin1');
  const id = trailer.ID ? ` /ID ${trailer.ID.toString()}` : '';
  const update =
    `${separator}${object}xref\n0 1\n0000000000 65535 f \n${objectNumber} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${objectNumber + 1} /Root ${trailer.Root.toString()} /Info ${objectNumber} 0 R${id} /Prev ${prev} >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([buffer, Buffer.from(update, 'latin1')]);
}
