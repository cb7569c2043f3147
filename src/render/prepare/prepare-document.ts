import { DocpipeError } from '../../base/errors/index.js';
import {
  DEFAULT_DELIMITERS,
  fillPackage,
  mayHoldAnchors,
  type FillOptions,
  type ShownValue,
} from '../../document/fill/index.js';
import type { PlacedAnchor } from '../../document/anchors/index.js';
import {
  embeddedFamilies,
  hardenedTemplate,
  type EmbeddedFont,
  type NeutralizedReference,
} from '../../document/harden/index.js';
import { documentFonts, latinFontsUsed } from '../../formats/fonts/index.js';
import { SniffCache, type DocxPackage, type SniffLimits } from '../../formats/sniff/index.js';
import { locatedAt } from '../../formats/zip/index.js';

/** This thread's sniffed packages: a template rendered again is not sniffed again. */
export const sniffCache = new SniffCache();

/** What a document becomes before conversion: a PDF to check, or a .docx ready for LibreOffice. */
export type Prepared =
  | { input: 'pdf'; timings: { sniff: number } }
  | {
      input: 'docx';
      docx: Uint8Array;
      neutralized: NeutralizedReference[];
      /** Fonts it embedded, removed so that no office process keeps them for later documents. */
      embeddedFonts: EmbeddedFont[];
      /** The families it uses for Latin text, read from the template (kept with its package). */
      fonts: string[];
      /** The anchors fill replaced by markers, to be found in the PDF; empty when none. */
      anchors: PlacedAnchor[];
      /** The text values fill wrote where they show: the PDF's text layer must have them. */
      shown: ShownValue[];
      timings: { sniff: number; fill?: number; harden: number };
    };

function hasTagValues(tags: unknown): boolean {
  return Array.isArray(tags) ? tags.length > 0 : tags !== undefined && tags !== null;
}

/**
 * Sniff, harden (external references cut, embedded fonts removed) and fill, in one go: the steps
 * before conversion run together in one worker thread, so the document crosses threads once. A .docx is filled when
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
  try {
    return prepareAt(field, bytes, tags, options);
  } catch (err) {
    // A damaged part met by any reader below (harden, the font scan, fill) names this document.
    throw locatedAt(err, field);
  }
}

function prepareAt(
  field: string,
  bytes: Uint8Array,
  tags: unknown,
  options: FillOptions & { limits: SniffLimits },
): Prepared {
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
  t = performance.now();
  // Fill never touches what hardening changes: the template is hardened once (kept with its
  // package) and filled hardened. Nearly every template has nothing to harden: a lookup.
  const hardened = hardenedTemplate(pkg, options.limits, field);
  const harden = performance.now() - t;
  const cut = { neutralized: hardened.neutralized, embeddedFonts: hardened.embeddedFonts };
  // A document's anchors become markers even when it has no values to fill.
  const anchored = () => mayHoldAnchors(pkg, options.delimiters ?? DEFAULT_DELIMITERS);
  if (!hasTagValues(tags) && !options.strict && !anchored()) {
    return {
      input: 'docx',
      docx: hardened.docx ?? bytes,
      ...cut,
      fonts: latinFamilies(pkg),
      anchors: [],
      shown: [],
      timings: { sniff, harden },
    };
  }
  t = performance.now();
  // Only LibreOffice reads it, once: deflating it would cost both sides time for nothing.
  const filled = fillPackage(hardened.pkg, tags ?? [], options, { compress: false });
  const fill = performance.now() - t;
  return {
    input: 'docx',
    docx: filled.docx,
    ...cut,
    fonts: latinFamilies(pkg),
    anchors: filled.anchors,
    shown: filled.shown,
    timings: { sniff, fill, harden },
  };
}

/** What a render's notices need of its document, read again for a cache hit. */
export interface DocumentFontFacts {
  /** The families it uses for Latin text. */
  asked: string[];
  /** The families of the fonts it embedded, removed before conversion (each once). */
  embedded: string[];
}

/** {@link DocumentFontFacts} of a package, as `prepareDocument` saw them. */
export function documentFontFacts(pkg: DocxPackage, limits: SniffLimits): DocumentFontFacts {
  return {
    asked: latinFamilies(pkg),
    embedded: embeddedFamilies(hardenedTemplate(pkg, limits).embeddedFonts),
  };
}

/** The families a package uses for Latin text: the ones a render's notices are about. */
export function latinFamilies(pkg: DocxPackage): string[] {
  return latinFontsUsed(documentFonts(pkg)).map((f) => f.family);
}
