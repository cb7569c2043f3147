import { DocpipeError } from '../errors/index.js';
import { fillPackage, type FillOptions } from '../fill/index.js';
import {
  neutralizeExternalReferences,
  neutralizePackage,
  planNeutralization,
  type NeutralizedReference,
} from '../harden/index.js';
import { documentFonts, latinFontsUsed } from '../fonts/index.js';
import { SniffCache, type DocxPackage, type SniffLimits } from '../sniff/index.js';

/** This thread's sniffed packages: a template rendered again is not sniffed again. */
export const sniffCache = new SniffCache();

/** What a document becomes before conversion: a PDF to check, or a .docx ready for LibreOffice. */
export type Prepared =
  | { input: 'pdf'; timings: { sniff: number } }
  | {
      input: 'docx';
      docx: Uint8Array;
      neutralized: NeutralizedReference[];
      /** The families it uses for Latin text, read from the template (kept with its package). */
      fonts: string[];
      timings: { sniff: number; fill?: number; harden: number };
    };

function hasTagValues(tags: unknown): boolean {
  return Array.isArray(tags) ? tags.length > 0 : tags !== undefined && tags !== null;
}

/**
 * Sniff, fill and neutralize external references, in one go: the steps before conversion run
 * together in one worker thread, so the document crosses threads once. A .docx is filled when
 * values are given, and always in strict mode: a strict document (every library document) is a
 * template whose every field needs a value, so without values it fails as `validation-failed`
 * listing each missing field instead of reaching a signer with its placeholders showing.
 */
export function prepareDocument(
  bytes: Uint8Array,
  tags: unknown,
  options: FillOptions & { limits: SniffLimits },
): Prepared {
  const field = options.field || 'document';
  let t = performance.now();
  // Parsed and checked once: fill and harden work on this package, not on bytes again.
  const sniffed = sniffCache.sniffPackage(bytes, options.limits);
  const sniff = performance.now() - t;
  if (sniffed.kind === 'unsupported') {
    throw new DocpipeError('unsupported-file-type', [
      { field, message: `${sniffed.reason}: ${sniffed.message}` },
    ]);
  }
  if (sniffed.kind === 'pdf') return { input: 'pdf', timings: { sniff } };
  const { pkg } = sniffed;
  if (!hasTagValues(tags) && !options.strict) {
    t = performance.now();
    const cut = neutralizePackage(pkg);
    const harden = performance.now() - t;
    return {
      input: 'docx',
      docx: cut.docx ?? bytes,
      neutralized: cut.neutralized,
      fonts: latinFamilies(pkg),
      timings: { sniff, harden },
    };
  }
  // Filling never changes relationship parts, so the template tells whether there is anything to
  // cut; only then is the filled document parsed again (rare: most documents link nothing).
  const needed = planNeutralization(pkg).neutralized.length > 0;
  t = performance.now();
  // Only LibreOffice reads it, once: deflating it would cost both sides time for nothing. Unless
  // it is parsed again to cut links: then it meets the input limits, which count its real size.
  const filled = fillPackage(pkg, tags ?? [], options, { compress: needed }).docx;
  const fill = performance.now() - t;
  t = performance.now();
  const hardened = needed
    ? neutralizeExternalReferences(filled, options.limits)
    : { docx: filled, neutralized: [] };
  const harden = performance.now() - t;
  return {
    input: 'docx',
    docx: hardened.docx,
    neutralized: hardened.neutralized,
    fonts: latinFamilies(pkg),
    timings: { sniff, fill, harden },
  };
}

/** The families a package uses for Latin text: the ones a render's notices are about. */
export function latinFamilies(pkg: DocxPackage): string[] {
  return latinFontsUsed(documentFonts(pkg)).map((f) => f.family);
}
