/**
 * Checks that a contender's W1 PDF holds the values it was filled with: a contender that is fast
 * because it left the tags empty (or converted the wrong document) must fail the run, not win it.
 * The values are read from the PDF's text layer (src/formats/pdf-text), not from the .docx.
 */
import { normalizeText, pageTexts } from '../src/formats/pdf-text/index.js';

/**
 * What W1 filled with templates/lease/fixtures/basic.tags.json shows, each as a pattern over the
 * PDF's text with runs of white space made one space. The rent's separators may be either way
 * round: Carbone 3 has no Danish number format, and writes 9,850.00 where docpipe writes 9.850,00.
 */
export const W1_FILLED_VALUES: readonly { name: string; pattern: RegExp }[] = [
  { name: "the tenant's name (Mette Sørensen)", pattern: /Lejer: Mette Sørensen/ },
  { name: "the landlord's name", pattern: /Ejendomsselskabet Å & Ø ApS/ },
  { name: 'the monthly rent (9850.00)', pattern: /9[.,]850[.,]00 kr\. pr\. måned/ },
  { name: 'the signing date (5. marts 2025)', pattern: /den 5\. marts 2025/ },
  { name: "the guarantor's section (Jens Sørensen)", pattern: /Jens Sørensen indestår/ },
];

/** The filled values that `pdf` lacks (empty when it has them all). */
export function missingW1Values(pdf: Uint8Array): string[] {
  const text = normalizeText(pageTexts(pdf).join(' '));
  return W1_FILLED_VALUES.filter((v) => !v.pattern.test(text)).map((v) => v.name);
}

/** Throws, naming the contender and what its PDF lacks, unless `pdf` holds W1's filled values. */
export function assertW1Filled(contender: string, pdf: Uint8Array): void {
  const missing = missingW1Values(pdf);
  if (missing.length > 0)
    throw new Error(
      `${contender}'s W1 PDF lacks the filled values (${missing.join('; ')}): its throughput does not count`,
    );
}
