import type { TooLargeInput } from '../../base/files/index.js';

/** Why a file was refused. Stable identifiers: tests, logs and the CLI's JSON use them. */
export const UNSUPPORTED_REASONS = [
  'empty',
  'encrypted',
  'macro-enabled',
  'template',
  'spreadsheet',
  'presentation',
  'opendocument',
  'legacy-office',
  'rtf',
  'zip',
  'damaged',
  'xml-doctype',
  'too-large',
  'unknown',
] as const;

export type UnsupportedReason = (typeof UNSUPPORTED_REASONS)[number];

export interface PdfSniff {
  kind: 'pdf';
  /** Version from the header, such as `1.7`. */
  version: string;
}

export interface DocxSniff {
  kind: 'docx';
  /** Zip entry name of the main document part (not always `word/document.xml`). */
  mainPart: string;
  /** Strict OOXML (ISO/IEC 29500 strict namespaces). */
  strict: boolean;
}

export interface UnsupportedSniff {
  kind: 'unsupported';
  reason: UnsupportedReason;
  /** One sentence for a person: what was found. */
  message: string;
}

export type SniffResult = PdfSniff | DocxSniff | UnsupportedSniff;
export type SniffKind = SniffResult['kind'];

export function unsupported(reason: UnsupportedReason, message: string): UnsupportedSniff {
  return { kind: 'unsupported', reason, message };
}

/** An input that readInput stopped reading at its limit, as sniff reports it. */
export function tooLargeSniff(input: TooLargeInput): UnsupportedSniff {
  return unsupported('too-large', input.message);
}
