import type { ContentTypes } from '../opc/index.js';
import type { ZipArchive } from '../zip/index.js';

/**
 * A package that sniffing accepted as a real .docx: every limit checked and every XML part free
 * of DOCTYPE. Fill works on this, never on raw bytes, so both see the same parts.
 */
export interface DocxPackage {
  readonly archive: ZipArchive;
  readonly contentTypes: ContentTypes;
  /** Zip entry name of the main document part. */
  readonly mainPart: string;
  readonly strict: boolean;
  /** Entry names of every XML part, all of them checked. */
  readonly xmlParts: readonly string[];
}
