import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkPdf, finishProducedPdf } from '../../src/pdf/index.js';

async function pdfWithPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage();
  // addDefaultPage: false, or pdf-lib would give a page-less document a blank page.
  return doc.save({ addDefaultPage: false });
}

describe('PDF check', () => {
  it('counts pages of a good PDF', async () => {
    expect(await checkPdf(await pdfWithPages(3), 'documents[0]')).toEqual({ pages: 3 });
  });

  it('refuses a PDF without pages or that does not parse, naming the field', async () => {
    await expect(checkPdf(await pdfWithPages(0), 'documents[2]')).rejects.toMatchObject({
      slug: 'unsupported-file-type',
      details: [{ field: 'documents[2]', message: 'damaged: has no pages' }],
    });
    await expect(checkPdf(Buffer.from('%PDF-1.4\ngarbage'), 'documents[0]')).rejects.toMatchObject({
      slug: 'unsupported-file-type',
    });
    await expect(
      checkPdf(Buffer.from('%PDF-1.4\ngarbage'), 'documents[0]', 'produced'),
    ).rejects.toMatchObject({
      slug: 'document-conversion-failed',
    });
  });

  it('writes Title and Producer into produced PDFs, and leaves PDF/A bytes alone', async () => {
    const pdf = await pdfWithPages(2);
    const { pdf: stamped, pages } = await finishProducedPdf(
      pdf,
      'documents[0]',
      { title: 'Lejekontrakt Å', producer: 'docpipe 9' },
      false,
    );
    expect(pages).toBe(2);
    // updateMetadata: false, or pdf-lib itself would overwrite the Producer while loading.
    const doc = await PDFDocument.load(stamped, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Lejekontrakt Å');
    expect(doc.getProducer()).toBe('docpipe 9');
    const kept = await finishProducedPdf(pdf, 'documents[0]', { title: 't', producer: 'p' }, true);
    expect(Buffer.from(kept.pdf).equals(Buffer.from(pdf))).toBe(true);
  });
});
