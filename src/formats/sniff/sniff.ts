import { asBuffer } from '../../base/util/index.js';
import { DocpipeError } from '../../base/errors/index.js';
import { hasDoctype } from '../opc/index.js';
import { CFB_SIGNATURE, probeCfb } from './cfb-probe.js';
import type { DocxPackage } from './docx-package.js';
import { probeZip } from './ooxml-probe.js';
import { misplacedPdfHeader, probePdf, startsAsPdf } from './pdf-probe.js';
import { DEFAULT_SNIFF_LIMITS, type SniffLimits } from './sniff-limits.js';
import { unsupported, type SniffResult, type UnsupportedSniff } from './sniff-result.js';

const ZIP_LOCAL = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_EMPTY = Buffer.from('PK\x05\x06', 'latin1');
const ZIP_SPANNED = Buffer.from('PK\x07\x08', 'latin1');
const RTF = Buffer.from('{\\rtf', 'latin1');
/** How much of a text file is looked at to name it in a refusal. */
const TEXT_HEAD = 2048;

/**
 * Decides from bytes alone what a document is: `pdf`, `docx`, or `unsupported` with a reason.
 * Never looks at a name or a declared type. Synchronous and allocation-bounded by the limits.
 */
export function sniffBytes(
  input: Uint8Array,
  limits: SniffLimits = DEFAULT_SNIFF_LIMITS,
): SniffResult {
  const result = classify(asBuffer(input), limits);
  return result.kind === 'docx'
    ? { kind: 'docx', mainPart: result.pkg.mainPart, strict: result.pkg.strict }
    : result;
}

/**
 * As {@link sniffBytes}, and names unknown formats (PNG, GIF, ...) in the message through
 * file-type, which only ever sees bytes already refused.
 */
export async function sniff(
  input: Uint8Array,
  limits: SniffLimits = DEFAULT_SNIFF_LIMITS,
): Promise<SniffResult> {
  const result = sniffBytes(input, limits);
  if (result.kind === 'unsupported' && result.reason === 'unknown') {
    // Loaded only here, for bytes already refused: a PDF or .docx never waits for file-type's
    // modules, and neither does anything that only imports sniff (`docpipe sniff` starts at once).
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(input).catch(() => undefined);
    if (detected)
      return unsupported('unknown', `${detected.mime} (.${detected.ext}), not a PDF or .docx`);
  }
  return result;
}

/**
 * Opens bytes as a .docx package for filling, or throws `unsupported-file-type` with the sniff
 * reason. The field names the document (`documents[1]`) when a path is given.
 */
export function openDocx(
  input: Uint8Array,
  limits: SniffLimits = DEFAULT_SNIFF_LIMITS,
  field = '',
): DocxPackage {
  const result = classify(asBuffer(input), limits);
  if (result.kind === 'docx') return result.pkg;
  const message =
    result.kind === 'pdf'
      ? 'a PDF cannot be filled: templates must be .docx'
      : `${result.reason}: ${result.message}`;
  throw new DocpipeError('unsupported-file-type', [{ field, message }]);
}

/** A sniff result that, for a .docx, carries the checked package itself, so it is parsed once. */
export type SniffedPackage =
  Exclude<SniffResult, { kind: 'docx' }> | { kind: 'docx'; pkg: DocxPackage };

/** As {@link sniffBytes}, keeping the parsed package of a .docx for the steps that follow. */
export function sniffPackage(
  input: Uint8Array,
  limits: SniffLimits = DEFAULT_SNIFF_LIMITS,
): SniffedPackage {
  return classify(asBuffer(input), limits);
}

type Classified = SniffedPackage;

function classify(bytes: Buffer, limits: SniffLimits): Classified {
  if (bytes.length === 0) return unsupported('empty', 'the file is empty');
  if (bytes.length > limits.maxInputBytes) {
    return unsupported(
      'too-large',
      `${bytes.length} bytes, more than the limit of ${limits.maxInputBytes}`,
    );
  }
  if (startsAsPdf(bytes)) return probePdf(bytes);
  const head = bytes.subarray(0, 8);
  if (
    head.subarray(0, 4).equals(ZIP_LOCAL) ||
    head.subarray(0, 4).equals(ZIP_EMPTY) ||
    head.subarray(0, 4).equals(ZIP_SPANNED)
  ) {
    return probeZip(bytes, limits);
  }
  if (head.equals(CFB_SIGNATURE)) return probeCfb(bytes);
  if (head.subarray(0, RTF.length).equals(RTF))
    return unsupported('rtf', 'Rich Text Format document');
  const pdfAt = misplacedPdfHeader(bytes);
  if (pdfAt > 0) {
    return unsupported('damaged', `PDF header at offset ${pdfAt}, not 0: junk before %PDF-`);
  }
  return classifyText(bytes);
}

function classifyText(bytes: Buffer): UnsupportedSniff {
  const head = bytes.subarray(0, TEXT_HEAD);
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (!text.startsWith('<')) return unsupported('unknown', 'not a PDF or .docx');
  const lower = text.toLowerCase();
  if (/<html[\s>]/.test(lower) || lower.startsWith('<!doctype html')) {
    return unsupported('unknown', 'HTML document, not a PDF or .docx');
  }
  if (hasDoctype(bytes)) return unsupported('xml-doctype', 'XML document with a DOCTYPE');
  if (lower.includes('office:document'))
    return unsupported('opendocument', 'flat OpenDocument XML');
  if (lower.includes('w:worddocument') || lower.includes('progid="word.document"')) {
    return unsupported('legacy-office', 'Word 2003 XML document, not .docx');
  }
  return unsupported('unknown', 'XML document, not a PDF or .docx');
}
