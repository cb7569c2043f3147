import { PDFDocument, rgb } from 'pdf-lib';
import type { TextMatch } from '../../formats/pdf-text/index.js';

/**
 * Paints a white rectangle over each match's box, on top of the page: for text tags that share
 * their text-showing operator with other text (a PDF from Word shows a whole line at once), so
 * that they cannot be taken off alone. What was drawn under the box (a line below the tag's
 * descent, say) is covered with it; the tag's text stays in the text layer, hidden. pdf-lib wraps
 * the page's content in q/Q first, so the box is drawn in the page's default user space.
 */
export async function coverText(
  pdf: Uint8Array,
  matches: readonly TextMatch[],
): Promise<Uint8Array> {
  if (matches.length === 0) return pdf;
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages = doc.getPages();
  for (const { page, rect } of matches)
    pages[page - 1]!.drawRectangle({
      x: rect.x,
      y: rect.y,
      width: rect.width,
      height: rect.height,
      color: rgb(1, 1, 1),
      borderWidth: 0,
    });
  return doc.save({ useObjectStreams: false });
}
