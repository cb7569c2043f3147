import { PDFDocument, ParseSpeeds, type PDFRef } from 'pdf-lib';
import { asBuffer } from '../../base/util/index.js';
import { DecodeBudget, withDecodeBudget } from './bounded-decode.js';
import { appendInfoUpdate } from './info-update.js';
import { DocpipeError } from '../../base/errors/index.js';
import { hasEncryptionDictionary } from '../pdf-bytes/index.js';
import { useParserHooks } from './parser-hooks.js';
import { PdfDamage } from './pdf-damage.js';
import { checkStructure } from './strict-structure.js';
import { useFastStreamEnd } from './stream-end.js';
import { useBoundedStructureStreams } from './structure-streams.js';
import { checkPdfLibInternals } from './pdf-lib-internals.js';
import { readFidelity, type PdfFidelity } from './pdf-fidelity.js';

checkPdfLibInternals();
useFastStreamEnd(true);
useParserHooks(true);
useBoundedStructureStreams(true);

export interface PdfInfo {
  pages: number;
}

/** Where a PDF came from: given by a caller (refused as unsupported) or produced by docpipe. */
export type PdfOrigin = 'input' | 'produced';

/**
 * Parses a PDF with pdf-lib and holds it to what poppler and pdf.js read
 * ({@link checkStructure}): accepted means every reader opens the same document.
 */
async function load(
  bytes: Uint8Array,
  field: string,
  origin: PdfOrigin,
): Promise<{ doc: PDFDocument; pages: PDFRef[] }> {
  const fail = (message: string) =>
    origin === 'input'
      ? new DocpipeError('unsupported-file-type', [{ field, message }])
      : new DocpipeError('document-conversion-failed', [
          { field, message: `the produced PDF ${message}` },
        ]);
  const buffer = asBuffer(bytes);
  const encrypted = () => fail('encrypted: is encrypted (its trailer has an /Encrypt entry)');
  // A given PDF is refused for any trailer with /Encrypt, also one readers would not reach, as
  // sniffing does; docpipe's own output is scanned only when it fails (on the hot path).
  if (origin === 'input' && hasEncryptionDictionary(buffer)) throw encrypted();
  const budget = new DecodeBudget();
  let doc: PDFDocument;
  try {
    // Invalid objects are errors, not repairs: a signed document must read the same everywhere.
    // Fastest: parse without yielding every 100 objects; checks run in worker threads, where
    // yielding to an event loop buys nothing (25 to 30 percent faster here). Encryption is
    // decided by the structure check, from the trailer readers use.
    doc = await withDecodeBudget(budget, () =>
      PDFDocument.load(bytes, {
        updateMetadata: false,
        throwOnInvalidObject: true,
        ignoreEncryption: true,
        parseSpeed: ParseSpeeds.Fastest,
      }),
    );
  } catch (err) {
    // Encrypted data often does not parse; the reason to give is still that it is encrypted.
    if (hasEncryptionDictionary(buffer)) throw encrypted();
    // pdf-lib threw its own error over the bomb it was stopped at.
    if (budget.refused) throw fail(`too-large: ${budget.refused.message}`);
    throw fail(`damaged: cannot be parsed (${parseFailure(err)})`);
  }
  try {
    return { doc, pages: withDecodeBudget(budget, () => checkStructure(buffer, doc)) };
  } catch (err) {
    if (!(err instanceof PdfDamage)) throw err;
    // A trailer that cannot be reached (its offsets broken) may still hold /Encrypt.
    if (err.reason === 'damaged' && hasEncryptionDictionary(buffer)) throw encrypted();
    throw fail(`${err.reason}: ${err.message}`);
  }
}

function parseFailure(err: unknown): string {
  return String((err as Error)?.message ?? err).slice(0, 200);
}

/** Checks a PDF: it parses, reads the same in every reader, has pages and is not encrypted. */
export async function checkPdf(
  bytes: Uint8Array,
  field: string,
  origin: PdfOrigin = 'input',
): Promise<PdfInfo> {
  return { pages: (await load(bytes, field, origin)).pages.length };
}

/**
 * {@link checkPdf}, and from the same parse what a reader of the render is told: the fonts the
 * PDF embeds and its empty pages.
 */
export async function checkPdfFidelity(
  bytes: Uint8Array,
  field: string,
  origin: PdfOrigin = 'input',
): Promise<PdfFidelity> {
  const { doc, pages } = await load(bytes, field, origin);
  return { pages: pages.length, ...readFidelity(doc, pages) };
}

export interface StampOptions {
  /** The document's name. */
  title: string;
  /** Names docpipe (and the engine that made the PDF). */
  producer: string;
}

/**
 * Checks a PDF docpipe produced and writes its Title and Producer. PDF/A files are only checked:
 * rewriting their Info dictionary would disagree with their XMP metadata and break conformance
 * (their title comes from the document properties LibreOffice exports).
 */
export async function finishProducedPdf(
  bytes: Uint8Array,
  field: string,
  stamp: StampOptions,
  pdfa: boolean,
): Promise<{ pdf: Uint8Array } & PdfFidelity> {
  const loaded = await load(bytes, field, 'produced');
  const { doc } = loaded;
  // Read before the Info dictionary is rewritten: the pages and their fonts stay as they are.
  const info = { pages: loaded.pages.length, ...readFidelity(doc, loaded.pages) };
  if (pdfa) return { pdf: bytes, ...info };
  const appended = appendInfoUpdate(bytes, doc, stamp);
  if (appended) return { pdf: appended, ...info };
  doc.setTitle(stamp.title, { showInWindowTitleBar: true });
  doc.setProducer(stamp.producer);
  const pdf = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return { pdf, ...info };
}
