import { DocpipeError } from '../errors/index.js';
import { fillTemplate, type FillOptions } from '../fill/index.js';
import { neutralizeExternalReferences, type NeutralizedReference } from '../harden/index.js';
import { sniffBytes, type SniffLimits } from '../sniff/index.js';

/** What a document becomes before conversion: a PDF to check, or a .docx ready for LibreOffice. */
export type Prepared =
  | { input: 'pdf'; timings: { sniff: number } }
  | {
      input: 'docx';
      docx: Uint8Array;
      neutralized: NeutralizedReference[];
      timings: { sniff: number; fill?: number; harden: number };
    };

function hasTagValues(tags: unknown): boolean {
  return Array.isArray(tags) ? tags.length > 0 : tags !== undefined && tags !== null;
}

/**
 * Sniff, fill (when values are given) and neutralize external references, in one go: the steps
 * before conversion run together in one worker thread, so the document crosses threads once.
 */
export function prepareDocument(
  bytes: Uint8Array,
  tags: unknown,
  options: FillOptions & { limits: SniffLimits },
): Prepared {
  const field = options.field || 'document';
  let t = performance.now();
  const sniffed = sniffBytes(bytes, options.limits);
  const sniff = performance.now() - t;
  if (sniffed.kind === 'unsupported') {
    throw new DocpipeError('unsupported-file-type', [
      { field, message: `${sniffed.reason}: ${sniffed.message}` },
    ]);
  }
  if (sniffed.kind === 'pdf') return { input: 'pdf', timings: { sniff } };
  let docx = bytes;
  let fill: number | undefined;
  if (hasTagValues(tags)) {
    t = performance.now();
    docx = fillTemplate(bytes, tags, options).docx;
    fill = performance.now() - t;
  }
  t = performance.now();
  const hardened = neutralizeExternalReferences(docx, options.limits);
  const harden = performance.now() - t;
  return {
    input: 'docx',
    docx: hardened.docx,
    neutralized: hardened.neutralized,
    timings: fill === undefined ? { sniff, harden } : { sniff, fill, harden },
  };
}
