import { rgb, type PDFPage } from '@libpdf/core';
import { finalizeFontsStably, openPdf } from '../../formats/pades/index.js';
import { AUDIT_WORDING, type AuditLanguage } from './audit-wording.js';
import { drawableText } from './drawable-text.js';
import type { SignaturePlace } from '../anchors/index.js';
import { stampFont } from './stamp-fonts.js';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
/** One signer's box: a caption, the signature area, then name and date side by side. */
const BOX_HEIGHT = 130;
const BOX_GAP = 16;
const SIGN_HEIGHT = 60;
const FIELD_HEIGHT = 14;
const LINE = rgb(0.6, 0.6, 0.6);
const GREY = rgb(0.35, 0.35, 0.35);

/**
 * Appends pages with one box per signer, for a document that has no anchors: each box has a
 * `sign` place, a `name` place and a `date` place for recipient = the signer's 1-based position.
 * As many boxes as fit go on a page, the rest on further pages. The document's earlier bytes are
 * kept as they were (an incremental update).
 */
export async function appendSignaturePage(
  pdf: Uint8Array,
  signers: readonly { name: string }[],
  language: AuditLanguage,
): Promise<{ pdf: Uint8Array; places: SignaturePlace[] }> {
  if (signers.length === 0) throw new RangeError('a signature page needs at least one signer');
  const doc = await openPdf(pdf);
  const w = AUDIT_WORDING[language];
  const regular = stampFont(doc, 'regular');
  const bold = stampFont(doc, 'bold');
  const places: SignaturePlace[] = [];
  let page: PDFPage | undefined;
  let top = 0;
  const width = PAGE.width - 2 * MARGIN;
  signers.forEach((signer, i) => {
    if (!page || top - BOX_HEIGHT < MARGIN) {
      page = doc.addPage({ width: PAGE.width, height: PAGE.height });
      page.drawText(drawableText(w.signaturesTitle, bold), {
        x: MARGIN,
        y: PAGE.height - MARGIN - 16,
        font: bold,
        size: 16,
      });
      top = PAGE.height - MARGIN - 40;
    }
    const pageNumber = doc.getPageCount();
    const recipient = i + 1;
    const bottom = top - BOX_HEIGHT;
    page.drawRectangle({
      x: MARGIN,
      y: bottom,
      width,
      height: BOX_HEIGHT,
      borderColor: LINE,
      borderWidth: 0.75,
    });
    const caption = drawableText(`${w.signer(recipient)}: ${signer.name}`, regular);
    page.drawText(caption, { x: MARGIN + 8, y: top - 16, font: regular, size: 9, color: GREY });
    const sign = { x: MARGIN + 8, y: bottom + 40, width: width - 16, height: SIGN_HEIGHT };
    page.drawLine({
      start: { x: sign.x, y: sign.y },
      end: { x: sign.x + sign.width, y: sign.y },
      color: LINE,
      thickness: 0.75,
    });
    const name = { x: MARGIN + 8, y: bottom + 14, width: (width - 32) * 0.6, height: FIELD_HEIGHT };
    const date = {
      x: name.x + name.width + 16,
      y: bottom + 14,
      width: (width - 32) * 0.4,
      height: FIELD_HEIGHT,
    };
    for (const [label, rect] of [
      [w.name, name],
      [w.date, date],
    ] as const)
      page.drawText(drawableText(label, regular), {
        x: rect.x,
        y: rect.y - 9,
        font: regular,
        size: 6.5,
        color: GREY,
      });
    places.push(
      { kind: 'sign', recipient, page: pageNumber, rect: sign },
      { kind: 'name', recipient, page: pageNumber, rect: name },
      { kind: 'date', recipient, page: pageNumber, rect: date },
    );
    top = bottom - BOX_GAP;
  });
  finalizeFontsStably(doc);
  return { pdf: await doc.save({ incremental: true }), places };
}
