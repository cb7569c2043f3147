import type { AnchorKind } from './anchor-kinds.js';

/**
 * A rectangle in PDF points (1/72 inch) in the page's default user space: origin at the
 * lower-left corner of the page's MediaBox, x to the right, y upwards, before any /Rotate.
 */
export interface PlaceRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a signer's mark goes. */
export interface SignaturePlace {
  kind: AnchorKind;
  /** 1-based position in the case's `recipients[]`. */
  recipient: number;
  /** 1-based page number. */
  page: number;
  rect: PlaceRect;
}

/** The anchor a place comes from, as field paths and messages name it: `sign:1`. */
export function anchorName(a: { kind: AnchorKind; recipient: number }): string {
  return `${a.kind}:${a.recipient}`;
}

/**
 * The field path of an anchor's failures: `documents[0].anchors.sign:1`, or `anchors.sign:1` for
 * a document rendered outside a request (as fill names `tags.start_date`).
 */
export function anchorField(field: string, anchor: string): string {
  return field ? `${field}.anchors.${anchor}` : `anchors.${anchor}`;
}
