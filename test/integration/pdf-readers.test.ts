import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPdf } from '../../src/formats/pdf/index.js';
import { sniff } from '../../src/formats/sniff/index.js';
import { corpusRows } from '../helpers/corpus.js';
import { MUTATION_KINDS, mutate, seededRng, type Mutant } from '../helpers/pdf-mutants.js';
import { pdfjsView, popplerView, type ReaderView } from '../helpers/pdf-readers.js';

/**
 * The policy behind the strict PDF check: a document to be signed reads the same everywhere, so
 * whatever docpipe accepts, poppler and pdf.js open as it is (no repair), with the same pages.
 * Mutants of every corpus PDF docpipe accepts are either refused or open in both.
 */

/** Fixed, so a failure reproduces; DOCPIPE_PDF_SEED explores other mutants. */
const DEFAULT_SEED = 0x5eed_2025;
const DEFAULT_MUTANTS_PER_FILE = 48;
const SEED = Number(process.env.DOCPIPE_PDF_SEED ?? DEFAULT_SEED);
const MUTANTS_PER_FILE = Number(process.env.DOCPIPE_PDF_MUTANTS ?? DEFAULT_MUTANTS_PER_FILE);
/** What the default seed's 1008 mutants come to: the check's verdicts are deterministic. */
const DEFAULT_VERDICTS = { accepted: 163, refused: 845 };

type Verdict = { accepted: true; pages: number } | { accepted: false; why: string };

/** What docpipe does with a PDF it is given: sniff, then the check, as the pipeline does. */
async function docpipe(bytes: Uint8Array): Promise<Verdict> {
  const sniffed = await sniff(bytes);
  if (sniffed.kind !== 'pdf')
    return {
      accepted: false,
      why: `sniff: ${sniffed.kind === 'unsupported' ? sniffed.reason : sniffed.kind}`,
    };
  try {
    return { accepted: true, pages: (await checkPdf(bytes, 'document')).pages };
  } catch (err) {
    return {
      accepted: false,
      why: (err as { details?: { message: string }[] }).details?.[0]?.message ?? String(err),
    };
  }
}

/** Why the readers do not agree with docpipe about an accepted PDF, or undefined when they do. */
async function readersDisagree(bytes: Uint8Array, pages: number): Promise<string | undefined> {
  const [poppler, pdfjs] = await Promise.all([popplerView(bytes), pdfjsView(bytes)]);
  const problems = (
    [
      ['poppler', poppler],
      ['pdf.js', pdfjs],
    ] as [string, ReaderView][]
  ).flatMap(([reader, view]) =>
    !view.ok
      ? [view.why]
      : view.pages !== pages
        ? [`${reader} reads ${view.pages} pages, docpipe ${pages}`]
        : [],
  );
  return problems.length > 0 ? problems.join('; ') : undefined;
}

const pdfRows = corpusRows().filter((row) => row.file.startsWith('pdf/'));

async function acceptedCorpus(): Promise<{ file: string; bytes: Buffer; pages: number }[]> {
  const accepted = [];
  for (const row of pdfRows) {
    const bytes = readFileSync(row.path);
    const verdict = await docpipe(bytes);
    if (verdict.accepted) accepted.push({ file: row.file, bytes, pages: verdict.pages });
  }
  return accepted;
}

describe('what docpipe accepts, poppler and pdf.js open as it is', () => {
  it('every corpus PDF docpipe accepts opens in both readers with the same pages', async () => {
    const accepted = await acceptedCorpus();
    expect(pdfRows.length).toBe(48);
    expect(accepted.map((a) => a.file)).toHaveLength(21);
    for (const { file, bytes, pages } of accepted)
      expect(await readersDisagree(bytes, pages), file).toBeUndefined();
  }, 120_000);

  it(`mutants of them (seed ${SEED}) are refused, or open in both readers`, async () => {
    const rng = seededRng(SEED);
    const mutants: (Mutant & { file: string })[] = [];
    for (const { file, bytes } of await acceptedCorpus()) {
      for (let i = 0; i < MUTANTS_PER_FILE; i++) mutants.push({ file, ...mutate(bytes, rng) });
    }
    expect(mutants).toHaveLength(21 * MUTANTS_PER_FILE);
    const failures: string[] = [];
    const acceptedKinds = new Set<string>();
    let accepted = 0;
    let refused = 0;
    for (const mutant of mutants) {
      const verdict = await docpipe(mutant.bytes);
      if (!verdict.accepted) {
        refused++;
        continue;
      }
      accepted++;
      acceptedKinds.add(mutant.name.split(/[-@]/)[0]!);
      const disagreement = await readersDisagree(mutant.bytes, verdict.pages);
      if (disagreement) failures.push(`${mutant.file} ${mutant.name}: ${disagreement}`);
    }
    console.log(`seed ${SEED}: ${accepted} accepted, ${refused} refused`);
    expect(failures, `seed ${SEED}`).toEqual([]);
    // The test can fail both ways: some mutants pass the check, many do not. The default mutants
    // are pinned, so a check that grows stricter or looser moves a number; other seeds explore.
    if (SEED === DEFAULT_SEED && MUTANTS_PER_FILE === DEFAULT_MUTANTS_PER_FILE)
      expect({ accepted, refused }).toEqual(DEFAULT_VERDICTS);
    else {
      expect(accepted, `seed ${SEED}`).toBeGreaterThan(30);
      expect(refused, `seed ${SEED}`).toBeGreaterThan(100);
    }
    expect(MUTATION_KINDS.length).toBe(12);
    // Names spelled with escapes are names to every reader: accepted, and they open.
    expect([...acceptedKinds]).toContain('respell');
  }, 180_000);

  it('readers decode escaped names as docpipe does: a re-spelled /Encrypt still asks for a password', async () => {
    const row = pdfRows.find((r) => r.file === 'pdf/pdfjs__issue6010_1.pdf')!;
    const respelled = Buffer.from(
      readFileSync(row.path)
        .toString('latin1')
        .replace(/\/Encrypt(?=[\s<\d])/g, '/E#6ecrypt'),
      'latin1',
    );
    expect(respelled.toString('latin1')).toContain('/E#6ecrypt');
    const poppler = await popplerView(respelled);
    expect(poppler).toMatchObject({ ok: false, why: expect.stringMatching(/password/i) });
    expect(await pdfjsView(respelled)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/PasswordException/),
    });
    expect(await docpipe(respelled)).toEqual({ accepted: false, why: 'sniff: encrypted' });
  });
});
