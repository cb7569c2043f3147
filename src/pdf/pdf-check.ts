import { PDFDocument, ParseSpeeds } from 'pdf-lib';
import { appendInfoUpdate } from './info-update.js';
import { DocpipeError } from '../errors/index.js';
import { useFastStreamEnd } from './stream-end.js';

useFastStreamEnd(true);

export interface PdfInfo {
  pages: number;
}

/** Where a PDF came from: given by a caller (refused as unsupported) or produced by docpipe. */
export type PdfOrigin = 'input' | 'produced';

async function load(bytes: Uint8Array, field: string, origin: PdfOrigin): Promise<PDFDocument> {
  const fail = (message: string) =>
    origin === 'input'
      ? new DocpipeError('unsupported-file-type', [{ field, message }])
      : new DocpipeError('document-conversion-failed', [
          { field, message: `the produced PDF ${message}` },
        ]);
  let doc: PDFDocument;
  try {
    // Invalid objects are errors, not repairs: a signed document must read the same everywhere.
    // Fastest: parse without yielding every 100 objects; checks run in worker threads, where
    // yielding to an event loop buys nothing (25 to 30 percent faster here).
    doc = await PDFDocument.load(bytes, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      parseSpeed: ParseSpeeds.Fastest,
    });
  } catch (err) {
    // By name: pdf-lib ships two builds, and its error classes differ between them.
    if ((err as Error).constructor?.name === 'EncryptedPDFError')
      throw fail('encrypted: is encrypted');
    throw fail(`damaged: cannot be parsed (${(err as Error).message.slice(0, 200)})`);
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch (err) {
    throw fail(`damaged: its page tree is broken (${(err as Error).message.slice(0, 200)})`);
  }
  if (pages < 1) throw fail('damaged: has no pages');
  return doc;
}

/** Checks a PDF with pdf-lib: it parses, has at least one page and is not encrypted. */
export async function checkPdf(
  bytes: Uint8Array,
  field: string,
  origin: PdfOrigin = 'input',
): Promise<PdfInfo> {
  const doc = await load(bytes, field, origin);
  return { pages: doc.getPageCount() };
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
): Promise<{ pdf: Uint8Array; pages: number }> {
  const doc = await load(bytes, field, 'produced');
  const pages = doc.getPageCount();
  if (pdfa) return { pdf: bytes, pages };
  const appended = appendInfoUpdate(bytes, doc, stamp);
  if (appended) return { pdf: appended, pages };
  doc.setTitle(stamp.title, { showInWindowTitleBar: true });
  doc.setProducer(stamp.producer);
  const pdf = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return { pdf, pages };
}
