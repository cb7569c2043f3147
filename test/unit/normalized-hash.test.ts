import { describe, expect, it } from 'vitest';
import { normalizedPdfHash } from '../../src/formats/pdf-bytes/index.js';

/** A trailer as LibreOffice writes it, with what varies between two conversions filled in. */
const pdf = (stamp: string, id: string, checksum: string) =>
  Buffer.from(
    `%PDF-1.6\n1 0 obj\n<</Producer(LibreOffice 7.4)/CreationDate(D:${stamp}Z')>>\nendobj\n` +
      `trailer\n<</Size 2/Info 1 0 R\n/ID [ <${id}>\n<${id}> ]\n/DocChecksum /${checksum}\n>>\n%%EOF\n`,
    'latin1',
  );

describe('the normalized hash of a PDF', () => {
  it('ignores the dates, the file identifier and the trailer checksum LibreOffice varies', () => {
    const a = pdf(
      '20261127101424',
      '9399883F01D0B2231419B8ABB1DA0FF3',
      '9782BE1D9ACD4DA06EF4849C59A65CA4',
    );
    const b = pdf(
      '20261127101425',
      'F323AD374E8F6392D673A6255227D220',
      '5EF722C40F21025150F8EE85AA515338',
    );
    expect(a.equals(b)).toBe(false);
    expect(normalizedPdfHash(a)).toBe(normalizedPdfHash(b));
  });

  it('tells apart PDFs that differ in anything else', () => {
    const a = pdf(
      '20261127101424',
      '9399883F01D0B2231419B8ABB1DA0FF3',
      '9782BE1D9ACD4DA06EF4849C59A65CA4',
    );
    const other = Buffer.from(
      a.toString('latin1').replace('LibreOffice 7.4', 'LibreOffice 7.5'),
      'latin1',
    );
    expect(normalizedPdfHash(a)).not.toBe(normalizedPdfHash(other));
  });
});
