import { ops, rgb, type PDF, type PDFPage } from '@libpdf/core';
import { drawableText } from './drawable-text.js';
import type { SignaturePlace } from '../anchors/index.js';
import { stampFont } from './stamp-fonts.js';
import { fittingSize } from './text-layout.js';

/** What to draw at one place: the drawn signature (a PNG docpipe re-encoded), or text. */
export interface Stamp {
  place: SignaturePlace;
  /** The drawn signature, already re-encoded as PNG by docpipe (never the bytes a browser sent). */
  png?: Uint8Array;
  /** The typed name, the name or the date. */
  text?: string;
}

/** Text never shrinks below this; what is still too wide is clipped at the place's edge. */
export const MIN_STAMP_TEXT_PT = 6;
/** The largest text: a typed signature may be large, a name or date reads as body text. */
const MAX_SIGN_TEXT_PT = 28;
const MAX_TEXT_PT = 12;
/** Liberation Sans's descent, as a share of the size: the baseline sits this far above the bottom. */
const DESCENT = 0.212;
const INK = rgb(0.05, 0.1, 0.35);

/**
 * Draws each stamp on its page of `pdf` (in place): a PNG scaled to fit its rectangle with its
 * aspect ratio kept and centred in it; text in Liberation Sans (italic for a typed signature,
 * a `sign` place without a PNG), at the largest size that fits from the place's height down to
 * MIN_STAMP_TEXT_PT, then clipped to the rectangle. A stamp with neither draws nothing.
 */
export function stampPlaces(pdf: PDF, stamps: readonly Stamp[]): void {
  const pages = pdf.getPages();
  stamps.forEach((stamp, i) => {
    const page = pages[stamp.place.page - 1];
    if (!page)
      throw new RangeError(
        `stamps[${i}].place.page is ${stamp.place.page}; the document has ${pages.length} page(s)`,
      );
    const rect = pageRect(page, stamp.place.rect);
    if (stamp.png) drawPng(pdf, page, stamp.png, rect);
    else if (stamp.text) drawFittedText(pdf, page, stamp.text, rect, stamp.place.kind === 'sign');
  });
}

type Rect = SignaturePlace['rect'];

/** Places are relative to the MediaBox's lower-left corner, which need not be (0, 0). */
function pageRect(page: PDFPage, rect: Rect): Rect {
  const box = page.getMediaBox();
  return { ...rect, x: rect.x + box.x, y: rect.y + box.y };
}

function drawPng(pdf: PDF, page: PDFPage, png: Uint8Array, rect: Rect): void {
  const image = pdf.embedPng(png);
  const scale = Math.min(rect.width / image.width, rect.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, {
    x: rect.x + (rect.width - width) / 2,
    y: rect.y + (rect.height - height) / 2,
    width,
    height,
  });
}

function drawFittedText(
  pdf: PDF,
  page: PDFPage,
  text: string,
  rect: Rect,
  typedSignature: boolean,
): void {
  const font = stampFont(pdf, typedSignature ? 'italic' : 'regular');
  const line = drawableText(text, font);
  if (!line) return;
  const max = Math.max(
    MIN_STAMP_TEXT_PT,
    Math.min(rect.height * 0.8, typedSignature ? MAX_SIGN_TEXT_PT : MAX_TEXT_PT),
  );
  const size = fittingSize(line, font, rect.width, max, MIN_STAMP_TEXT_PT);
  const baseline = rect.y + Math.max(0, (rect.height - size) / 2) + size * DESCENT;
  page.drawOperators([
    ops.pushGraphicsState(),
    ops.rectangle(rect.x, rect.y, rect.width, rect.height),
    ops.clip(),
    ops.endPath(),
  ]);
  page.drawText(line, { x: rect.x, y: baseline, font, size, color: INK });
  page.drawOperators([ops.popGraphicsState()]);
}
