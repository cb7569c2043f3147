import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { SignaturePlace } from '../../document/anchors/index.js';

/** The colour of a place's frame and label: a blue that shows against text and the tag shades. */
const PLACE_COLOUR = rgb(0.05, 0.35, 0.85);
/** Label size in points: readable at 96 dpi, small beside a 10 pt date place. */
const LABEL_POINTS = 6;

/**
 * Draws each place on its page: a frame with a pale fill over the rectangle the signer's mark
 * will take, and its kind and recipient (`sign 1`) in its top left corner (inside: the line above
 * is often text), so that an author sees where each
 * signer signs and how much room each place takes.
 */
export async function drawPlaces(
  pdf: Uint8Array,
  places: readonly SignaturePlace[],
): Promise<Uint8Array> {
  if (places.length === 0) return pdf;
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  for (const place of places) {
    const page = pages[place.page - 1];
    if (!page) continue;
    // Places are measured from the MediaBox's lower-left corner; drawing is in user space.
    const box = page.getMediaBox();
    const { rect } = place;
    page.drawRectangle({
      x: box.x + rect.x,
      y: box.y + rect.y,
      width: rect.width,
      height: rect.height,
      color: PLACE_COLOUR,
      opacity: 0.12,
      borderColor: PLACE_COLOUR,
      borderWidth: 0.75,
    });
    page.drawText(`${place.kind} ${place.recipient}`, {
      x: box.x + rect.x + 1.5,
      y: box.y + rect.y + rect.height - LABEL_POINTS - 0.5,
      size: LABEL_POINTS,
      font,
      color: PLACE_COLOUR,
    });
  }
  return doc.save({ useObjectStreams: false });
}
