import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/convert/index.js';
import { isDocpipeError } from '../../src/errors/index.js';
import { checkPdf } from '../../src/pdf/index.js';
import { corpusRows } from '../helpers/corpus.js';

/**
 * Every real .docx of the corpus, converted by the warm pool. The manifest notes how many pages
 * one plain `soffice --convert-to pdf` made of each; ours must match, or fail typed.
 */
const rows = corpusRows().filter((r) => r.expectedKind === 'docx');
const expectedPages = (notes: string): number | undefined => {
  const m = /PDF ok, (\d+) page\(s\)/.exec(notes);
  return m ? Number(m[1]) : undefined;
};

let pool: OfficePool;
const outcomes = new Map<string, string>();

beforeAll(async () => {
  pool = await OfficePool.start({ processes: 2, conversionTimeoutMs: 60_000 });
});
afterAll(async () => {
  await pool.close();
  const failed = [...outcomes].filter(([, o]) => o.startsWith('failed'));
  // For the record in CI logs: which documents LibreOffice could not convert, and why.
  for (const [file, outcome] of failed)
    process.stdout.write(`corpus conversion ${file}: ${outcome}\n`);
});

describe('corpus: every .docx converts with the right page count or fails typed', () => {
  it.each(rows.map((r) => [r.file, r] as const))(
    '%s',
    async (_file, row) => {
      try {
        const pdf = await pool.convert({
          docx: readFileSync(row.path),
          field: 'documents[0]',
          title: row.file,
        });
        const { pages } = await checkPdf(pdf, 'documents[0]', 'produced');
        const expected = expectedPages(row.notes);
        if (expected !== undefined) expect(pages).toBe(expected);
        else expect(pages).toBeGreaterThanOrEqual(1);
        outcomes.set(row.file, `ok ${pages}`);
      } catch (err) {
        if (!isDocpipeError(err)) throw err;
        expect(err.slug).toBe('document-conversion-failed');
        expect(err.details[0]?.field).toBe('documents[0]');
        outcomes.set(row.file, `failed: ${err.details[0]?.message}`);
      }
    },
    150_000,
  );

  it('leaves the pool healthy and serving', async () => {
    expect(outcomes.size).toBe(rows.length);
    const fixture = rows.find((r) => r.file === 'docx/gotenberg__pages_3.docx')!;
    const pdf = await pool.convert({ docx: readFileSync(fixture.path), field: 'documents[0]' });
    expect((await checkPdf(pdf, 'documents[0]', 'produced')).pages).toBe(3);
    // A process replaced near the end (after a crash or its RSS limit) may still be starting.
    const until = Date.now() + 30_000;
    while (pool.stats().ready < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(pool.stats().ready).toBe(2);
    // Most documents convert; a typed failure is allowed, a majority of them is not.
    const failed = [...outcomes.values()].filter((o) => o.startsWith('failed'));
    expect(failed.length).toBeLessThan(rows.length / 10);
  });
});
