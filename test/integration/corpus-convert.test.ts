import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { isDocpipeError } from '../../src/base/errors/index.js';
import { checkPdf } from '../../src/formats/pdf/index.js';
import { corpusRows, type CorpusRow } from '../helpers/corpus.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Every real .docx of the corpus, converted by the warm pool. The manifest notes how many pages
 * one plain `soffice --convert-to pdf` made of each; ours must match, or fail typed.
 */
const rows = corpusRows().filter((r) => r.expectedKind === 'docx');
const expectedPages = (notes: string): number | undefined => {
  const m = /PDF ok, (\d+) page\(s\)/.exec(notes);
  return m ? Number(m[1]) : undefined;
};

/**
 * The budget, over the whole corpus: with LibreOffice 7.4 every one of the 221 documents
 * converts, so none may fail; the 141 without a page count in the manifest make 154 pages.
 * A document that starts failing, even typed, or a page count that moves, is a regression.
 */
const BUDGET = { documents: 221, failed: {}, pagesWithoutManifestCount: 154 };

type Outcome = { pages: number } | { failed: string; field: string | undefined };

let pool: OfficePool;
const outcomes = new Map<string, Promise<Outcome>>();

/** One conversion per document, whichever test asks first; the others reuse its outcome. */
function outcomeOf(row: CorpusRow): Promise<Outcome> {
  let outcome = outcomes.get(row.file);
  if (!outcome) {
    outcome = convert(row);
    outcomes.set(row.file, outcome);
  }
  return outcome;
}

async function convert(row: CorpusRow): Promise<Outcome> {
  try {
    const pdf = await pool.convert({
      docx: readFileSync(row.path),
      field: 'documents[0]',
      title: row.file,
    });
    return { pages: (await checkPdf(pdf, 'documents[0]', 'produced')).pages };
  } catch (err) {
    if (!isDocpipeError(err)) throw err;
    return { failed: `${err.slug}: ${err.details[0]?.message}`, field: err.details[0]?.field };
  }
}

/** Every document's outcome, converted one after another as the per-document tests do. */
async function allOutcomes(): Promise<Map<string, Outcome>> {
  const all = new Map<string, Outcome>();
  for (const row of rows) all.set(row.file, await outcomeOf(row));
  return all;
}

beforeAll(async () => {
  pool = await OfficePool.start({ processes: 2, conversionTimeoutMs: 60_000 });
});
afterAll(async () => {
  await pool.close();
});

describe('corpus: every .docx converts with the right page count or fails typed', () => {
  it.each(rows.map((r) => [r.file, r] as const))(
    '%s',
    async (_file, row) => {
      const outcome = await outcomeOf(row);
      if ('failed' in outcome) {
        expect(outcome.failed).toMatch(/^document-conversion-failed: /);
        expect(outcome.field).toBe('documents[0]');
        return;
      }
      const expected = expectedPages(row.notes);
      if (expected !== undefined) expect(outcome.pages).toBe(expected);
      else expect(outcome.pages).toBeGreaterThanOrEqual(1);
    },
    150_000,
  );

  it('stays within its budget over the whole corpus', async () => {
    const all = await allOutcomes();
    const failed: Record<string, string> = {};
    let pagesWithoutManifestCount = 0;
    for (const row of rows) {
      const outcome = all.get(row.file)!;
      if ('failed' in outcome) failed[row.file] = outcome.failed;
      else if (expectedPages(row.notes) === undefined) pagesWithoutManifestCount += outcome.pages;
    }
    expect({ documents: all.size, failed, pagesWithoutManifestCount }).toEqual(BUDGET);
  }, 600_000);

  it('leaves the pool healthy and serving after the whole corpus', async () => {
    await allOutcomes();
    const fixture = rows.find((r) => r.file === 'docx/gotenberg__pages_3.docx')!;
    const pdf = await pool.convert({ docx: readFileSync(fixture.path), field: 'documents[0]' });
    expect((await checkPdf(pdf, 'documents[0]', 'produced')).pages).toBe(3);
    // A process replaced near the end (after a crash or its RSS limit) may still be starting.
    await waitUntil(() => pool.stats().ready === 2, 30_000, 'both office processes ready');
  }, 600_000);
});
