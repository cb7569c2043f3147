import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFContext,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';
import type { ParseRecord } from './parser-hooks.js';
import { PdfDamage } from './pdf-damage.js';
import type { XrefChain } from './xref-chain.js';

/** Classic cross-reference entries are 20 bytes: poppler finds entry i at /T + 20 i. */
const ENTRY_BYTES = 20;

/**
 * A linearized PDF (its first object a linearization dictionary whose /L is the file's length)
 * is read through that dictionary: pdf.js takes its page count from /N and its first page from
 * /O, and poppler finds the main cross-reference entries at /T + 20 i instead of following
 * /Prev. So when readers take a file for linearized, those must agree with the file. An update
 * appended later changes the length, and readers then read it as an ordinary file.
 */
export function checkLinearization(
  bytes: Buffer,
  context: PDFContext,
  record: ParseRecord,
  chain: XrefChain,
  pages: PDFRef[],
): void {
  const first = record.first;
  const kept =
    first && record.definedAt.get(`${first.ref.objectNumber} ${first.ref.generationNumber}`);
  const dict = first && kept === first.at ? context.lookup(first.ref) : undefined;
  if (!(dict instanceof PDFDict)) return;
  const linearized = numberIn(dict, 'Linearized');
  if (linearized === undefined || !(linearized > 0) || numberIn(dict, 'L') !== bytes.length) return;
  const bad = (what: string) => new PdfDamage(`its linearization dictionary ${what}`);
  const n = numberIn(dict, 'N');
  if (n !== pages.length) throw bad(`says /N ${String(n)} pages, but it has ${pages.length}`);
  const firstIndex = numberIn(dict, 'P') ?? 0;
  const firstPage = pages[firstIndex];
  if (!firstPage || numberIn(dict, 'O') !== firstPage.objectNumber)
    throw bad(
      `names object ${String(numberIn(dict, 'O'))} as page ${firstIndex + 1}, which is not`,
    );
  const hints = dict.get(PDFName.of('H'));
  if (!(hints instanceof PDFArray) || (hints.size() !== 2 && hints.size() !== 4))
    throw bad('has no valid /H hint table offsets');
  const t = numberIn(dict, 'T');
  if (t === undefined || !Number.isInteger(t) || t <= 0) throw bad('has no valid /T');
  if (chain.newest.table) checkMainEntries(bytes, chain, t);
}

/** Each entry poppler reads at /T + 20 i must be the entry the /Prev chain gives. */
function checkMainEntries(bytes: Buffer, chain: XrefChain, t: number): void {
  for (const [number, entry] of chain.entries) {
    if (chain.newest.numbers.has(number)) continue;
    const at = t + ENTRY_BYTES * number;
    const text = bytes.subarray(at, at + ENTRY_BYTES).toString('latin1');
    const found = /^\s*(\d+)\s+(\d+)\s+([nf])/.exec(text);
    const same =
      found !== null &&
      (entry.kind === 'free'
        ? found[3] === 'f'
        : entry.kind === 'offset' &&
          found[3] === 'n' &&
          Number(found[1]) === entry.offset &&
          Number(found[2]) === entry.generation);
    if (!same)
      throw new PdfDamage(
        `its linearization dictionary's /T (${t}) does not lead to the entry for object ${number} (poppler reads it at offset ${at})`,
      );
  }
}

function numberIn(dict: PDFDict, key: string): number | undefined {
  const value: PDFObject | undefined = dict.get(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}
