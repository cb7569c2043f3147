import type { FillOptions } from '../../document/fill/index.js';
import type { SignaturePlace } from '../../document/anchors/index.js';

export interface RenderInput {
  bytes: Uint8Array;
  /** The document's name: the PDF's title. Never a path: storage keys are content hashes. */
  name: string;
  /**
   * Its place in the fair schedule (its job's BullMQ priority, lower first): conversions waiting
   * for an office process go in this order, so that another company's document overtakes the
   * batch the worker had already taken. Not part of what is rendered. @defaultValue none: last
   */
  place?: number;
}

/**
 * What a render does about what it notices: `report` answers notices with the PDF, `strict`
 * refuses a render with a font replaced by one of other widths or an empty page
 * (`document-production-failed`), storing nothing.
 */
export type Fidelity = 'report' | 'strict';

export interface RenderOptions extends Omit<FillOptions, 'limits'> {
  /** PDF/A-2b output. @defaultValue false */
  pdfa?: boolean;
  /** @defaultValue 'report' */
  fidelity?: Fidelity;
  /**
   * For a PDF: find its text tags (`{{sign:1}}`), take them off the page and answer their places.
   * Off unless asked, since it reads the whole text layer. A .docx's anchors are always placed,
   * whatever this says. @defaultValue false
   */
  places?: boolean;
}

export type RenderStep =
  'cache' | 'sniff' | 'fill' | 'harden' | 'convert' | 'check' | 'values' | 'places' | 'store';

export interface RenderResult {
  /** Storage key of the PDF. */
  key: string;
  type: 'pdf';
  bytes: number;
  sha256: string;
  pages: number;
  /** What the input was. */
  input: 'pdf' | 'docx';
  /** Families of the fonts the PDF embeds, sorted (Liberation Sans, Carlito). */
  fonts: string[];
  /** What a reader of the PDF should know (spec 7.3 shape); empty when nothing. */
  notices: RenderNotice[];
  /**
   * Where each signer signs: one place per anchor of a .docx (an anchor in a header or footer,
   * one on every page that shows it), or per text tag of a PDF rendered with `places: true`; in
   * page order. Absent when there are none. A cached render answers the same places.
   */
  places?: SignaturePlace[];
  /**
   * What the PDF is, for a signed document's evidence; a cached render answers the same. Every
   * render has it; optional for results a worker older than evidence put on the queue.
   */
  evidence?: RenderEvidence;
  /** Answered from storage without converting. */
  cached: boolean;
  /** Milliseconds per step of this call. */
  timings: Partial<Record<RenderStep, number>>;
}

/**
 * A font the document asks for is not installed and LibreOffice drew its text with another.
 * `metricCompatible`: the replacement has the same widths, so lines and pages break as in Word.
 */
export interface FontSubstitutedNotice {
  code: 'font-substituted';
  message: string;
  font: string;
  replacement: string;
  metricCompatible: boolean;
}

/** A page of the PDF draws nothing (no text, image or line). */
export interface EmptyPageNotice {
  code: 'empty-page';
  message: string;
  /** Numbered from 1. */
  page: number;
}

/**
 * The document embedded fonts, and they were not used: they were removed before conversion, so
 * its text was drawn with installed fonts (each replacement has its own `font-substituted`).
 */
export interface EmbeddedFontsIgnoredNotice {
  code: 'embedded-fonts-ignored';
  message: string;
  /** The families it embedded, each once, in the document's order. */
  fonts: string[];
}

/**
 * A text value filled into the document is not in the PDF's text layer (hidden, in a shape the
 * converter dropped): a reader would not see it. Strict fidelity refuses the render.
 */
export interface ValueNotShownNotice {
  code: 'value-not-shown';
  message: string;
  /** The value, as fill names values: `documents[0].tags.start_date`. */
  field: string;
}

/**
 * A value filled into the document has characters no installed font has a glyph for: the PDF
 * draws each as an empty box (`.notdef`), which a reader cannot read. Strict fidelity refuses the
 * render.
 */
export interface CharactersNotDrawnNotice {
  code: 'characters-not-drawn';
  message: string;
  /** The value, as fill names values: `documents[0].tags.tenant_name`. */
  field: string;
  /** The characters without a glyph, each once, in the order the value has them. */
  characters: string[];
}

export type RenderNotice =
  | EmbeddedFontsIgnoredNotice
  | FontSubstitutedNotice
  | EmptyPageNotice
  | ValueNotShownNotice
  | CharactersNotDrawnNotice;

/**
 * What a render's PDF is, for a signed document's evidence (docs/signing.md "Evidence"). Every
 * field is read from the input, the values and the stored PDF, so that a cached render answers
 * the very same evidence as the render that stored it.
 */
export interface RenderEvidence {
  /** SHA-256 of the PDF, hex. */
  sha256: string;
  /** SHA-256 of the PDF with what varies between conversions blanked (normalizedPdfHash). */
  normalizedSha256: string;
  /** SHA-256 of the input bytes: the .docx template, or the PDF as given. */
  templateSha256: string;
  /** SHA-256 of the canonical JSON of the TagInput values used; null when none. */
  valuesSha256: string | null;
  /** As RenderResult.fonts. */
  fonts: string[];
  pages: number;
  /** The producer LibreOffice wrote into the PDF (`LibreOffice 7.4`); null for a PDF input. */
  officeVersion: string | null;
  /** The docpipe version that produced the PDF (from its Producer stamp), else this one's. */
  docpipeVersion: string;
}
