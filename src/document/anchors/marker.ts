import { MARKER_FORMATS, type AnchorKind } from './anchor-kinds.js';

/** Highest serial a marker holds: three digits, so at most 999 anchors in a document. */
export const MAX_ANCHORS = 999;

/**
 * Every marker in a text layer: `DP`, the kind's letter, the recipient in two digits, the serial
 * in three, then the `x` padding. Global: use with matchAll, or give a fresh copy to an API that
 * keeps lastIndex.
 */
export const MARKER_PATTERN = /DP[SIND]\d{5}x*/g;

/** An anchor as fill placed it: what the PDF's text layer must show once per place. */
export interface PlacedAnchor {
  kind: AnchorKind;
  recipient: number;
  /** 1-based: the anchor's order in the document (body, headers, footers, notes). */
  serial: number;
  /** Its marker's text. */
  marker: string;
}

/** `DPS01001xxxx`: the marker text of an anchor, padded to its kind's length. */
export function markerText(kind: AnchorKind, recipient: number, serial: number): string {
  const { letter, length } = MARKER_FORMATS[kind];
  const head = `DP${letter}${pad(recipient, 2)}${pad(serial, 3)}`;
  return head.padEnd(length, 'x');
}

export function placedAnchor(kind: AnchorKind, recipient: number, serial: number): PlacedAnchor {
  return { kind, recipient, serial, marker: markerText(kind, recipient, serial) };
}

const LETTER_KINDS: Readonly<Record<string, AnchorKind>> = {
  S: 'sign',
  I: 'initials',
  N: 'name',
  D: 'date',
};

/**
 * The anchor a marker text names, when it is a whole marker of its kind's length; undefined for a
 * piece of one (a marker broken over two lines shows as two shorter texts) or anything else.
 */
export function readMarker(text: string): PlacedAnchor | undefined {
  const m = /^DP([SIND])(\d{2})(\d{3})x*$/.exec(text);
  if (!m) return undefined;
  const kind = LETTER_KINDS[m[1]!]!;
  if (text.length !== MARKER_FORMATS[kind].length) return undefined;
  return placedAnchor(kind, Number(m[2]), Number(m[3]));
}

/** The serial of a marker or of a piece of one long enough to hold it, for naming what was lost. */
export function markerSerial(text: string): number | undefined {
  const m = /^DP[SIND]\d{2}(\d{3})/.exec(text);
  return m ? Number(m[1]) : undefined;
}

function pad(n: number, digits: number): string {
  return String(n).padStart(digits, '0');
}
