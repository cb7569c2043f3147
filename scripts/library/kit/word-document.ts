import { Document, Paragraph, Table, type FileChild } from 'docx';
import { MARKERS } from './blocks.js';
import type { Look } from './look.js';
import { PAGE_SETUP, pageFooter, pageHeader } from './page.js';
import { documentNumbering, documentStyles } from './styles.js';

/** Who the documents say wrote them (core.xml creator and last modified by). */
export const AUTHOR = 'docpipe template library';

export interface WordDocumentSpec {
  look: Look;
  /** core.xml title and subject, as Word's File > Info shows them. */
  title: string;
  subject: string;
  header: { left: string; right: string };
  /** Footer text left of the page numbers: a reference, often a tag. */
  footer: string;
  body: (FileChild | FileChild[])[];
}

/** One section, A4, with the document's styles, lists, theme fonts, header and footer. */
export function wordDocument(spec: WordDocumentSpec): Document {
  const { look } = spec;
  const body = spec.body.flat();
  assertTablesApart(spec.title, body);
  return new Document({
    creator: AUTHOR,
    lastModifiedBy: AUTHOR,
    revision: 1,
    title: spec.title,
    subject: spec.subject,
    // The theme names the fonts Word offers as "+Headings" and "+Body"; left alone it would name
    // Calibri Light, which has no metric-compatible font here.
    theme: { fonts: { headings: look.headings, body: look.body } },
    styles: documentStyles(look),
    numbering: documentNumbering(look),
    sections: [
      {
        properties: PAGE_SETUP,
        headers: { default: pageHeader(look, spec.header.left, spec.header.right) },
        footers: { default: pageFooter(look, spec.footer) },
        children: body,
      },
    ],
  });
}

/**
 * Word and LibreOffice join two tables with nothing between them into one table, so a signature
 * table after a grid takes the grid's borders. A section's marker paragraphs do not count: the
 * filled document no longer has them.
 */
function assertTablesApart(title: string, body: FileChild[]): void {
  let previous: FileChild | undefined;
  for (const child of body) {
    if (child instanceof Paragraph && MARKERS.has(child)) continue;
    if (child instanceof Table && previous instanceof Table) {
      throw new Error(`${title}: two tables meet in the body; put a paragraph between them`);
    }
    previous = child;
  }
}
