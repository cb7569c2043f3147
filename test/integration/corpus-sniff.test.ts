import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniff, UNSUPPORTED_REASONS } from '../../src/formats/sniff/index.js';
import { corpusRows } from '../helpers/corpus.js';

/**
 * Rows where docpipe's rules overrule the manifest, each with the reason. The manifest's
 * expected kind came from what poppler could open; the rule is that encrypted PDFs are
 * refused whatever their passwords.
 */
const OVERRULED: Record<string, { kind: 'unsupported'; reason: string; why: string }> = {
  'pdf/pdfjs__bug1782186.pdf': {
    kind: 'unsupported',
    reason: 'encrypted',
    why: 'AESV2 stream encryption (/StmF /StdCF) with user password "Hello"; poppler opens it only because it skips the handler',
  },
};

/**
 * What docpipe makes of the rows the manifest leaves open (`either`: damaged or odd files some
 * readers open), pinned so a change in sniffing or the PDF check shows here.
 */
const EITHER: Record<string, string> = {
  'docx/poi__unicode-path.docx': 'unsupported:damaged',
  'pdf/pdfjs__Brotli-Prototype-FileA.pdf': 'pdf',
  'pdf/pdfjs__GHOSTSCRIPT-698804-1-fuzzed.pdf': 'pdf',
  'pdf/pdfjs__REDHAT-1531897-0.pdf': 'pdf',
  'pdf/pdfjs__bomb_giant.pdf': 'pdf',
  'pdf/pdfjs__bug1020226.pdf': 'unsupported:damaged',
  'pdf/pdfjs__bug1606566.pdf': 'unsupported:unknown',
  'pdf/pdfjs__bug1980958.pdf': 'unsupported:damaged',
  'pdf/pdfjs__helloworld-bad.pdf': 'pdf',
  'pdf/pdfjs__issue6069.pdf': 'unsupported:damaged',
  'pdf/pdfjs__issue9105_other.pdf': 'unsupported:damaged',
  'pdf/pdfjs__issue9418.pdf': 'pdf',
  'pdf/pdfjs__poppler-67295-0.pdf': 'pdf',
  'pdf/pdfjs__poppler-85140-0.pdf': 'unsupported:damaged',
  'pdf/pdfjs__xref_command_missing.pdf': 'pdf',
  'pdf/tika__testPDF_bom.pdf': 'unsupported:damaged',
  'pdf/tika__testPDF_malformedXFA.pdf': 'unsupported:damaged',
};

/** Every file's outcome over the whole corpus, by kind and refusal reason. */
const OUTCOMES = {
  docx: 221,
  pdf: 29,
  'unsupported:damaged': 14,
  'unsupported:empty': 1,
  'unsupported:encrypted': 16,
  'unsupported:legacy-office': 2,
  'unsupported:macro-enabled': 3,
  'unsupported:opendocument': 2,
  'unsupported:presentation': 1,
  'unsupported:rtf': 3,
  'unsupported:spreadsheet': 1,
  'unsupported:too-large': 1,
  'unsupported:unknown': 4,
  'unsupported:xml-doctype': 1,
  'unsupported:zip': 5,
};

const rows = corpusRows();

/** A sniff result as one word: the kind, or `unsupported:` and the reason. */
async function outcomeOf(path: string): Promise<string> {
  const result = await sniff(readFileSync(path));
  return result.kind === 'unsupported' ? `unsupported:${result.reason}` : result.kind;
}

describe('corpus: every file is classified as the manifest expects', () => {
  it('has the whole manifest: 304 files', () => {
    expect(rows.length).toBe(304);
  });

  it('gives the pinned count of each outcome over the whole corpus', async () => {
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const outcome = await outcomeOf(row.path);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    expect(counts).toEqual(OUTCOMES);
  });

  it.each(rows.map((r) => [r.file, r] as const))('%s', async (_file, row) => {
    const result = await sniff(readFileSync(row.path));
    if (result.kind === 'unsupported') {
      expect(UNSUPPORTED_REASONS).toContain(result.reason);
      expect(result.message.length).toBeGreaterThan(0);
    }
    const overruled = OVERRULED[row.file];
    if (overruled) {
      expect(result).toMatchObject({ kind: overruled.kind, reason: overruled.reason });
      return;
    }
    switch (row.expectedKind) {
      case 'docx':
      case 'pdf':
        expect(result.kind).toBe(row.expectedKind);
        break;
      case 'unsupported':
      case 'data':
        expect(result.kind).toBe('unsupported');
        break;
      case 'either':
        expect(await outcomeOf(row.path)).toBe(EITHER[row.file]);
        break;
      default:
        throw new Error(`unknown expected_kind ${String(row.expectedKind)}`);
    }
  });

  it('refuses the adversarial files for the right reason', async () => {
    const reasonOf = async (file: string) => {
      const r = await sniff(readFileSync(rows.find((x) => x.file === file)!.path));
      return r.kind === 'unsupported' ? r.reason : r.kind;
    };
    expect(await reasonOf('docx/poi__ExternalEntityInText.docx')).toBe('xml-doctype');
    expect(await reasonOf('docx/poi__bug53475-password-is-pass.docx')).toBe('encrypted');
    expect(await reasonOf('docx/poi__unicode-path.docx')).toBe('damaged');
    expect(await reasonOf('other/tika__testWORD_macros.docm')).toBe('macro-enabled');
    expect(await reasonOf('templates/docxtemplater__input.dotm')).toBe('macro-enabled');
    expect(await reasonOf('pdf/tika__testPassword4Spaces.pdf')).toBe('encrypted');
    expect(await reasonOf('other/tika__file10_permahang.txt')).toBe('empty');
  });
});
