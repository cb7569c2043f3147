import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniff, UNSUPPORTED_REASONS } from '../../src/sniff/index.js';
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

const rows = corpusRows();

describe('corpus: every file is classified as the manifest expects', () => {
  it('has the whole manifest', () => {
    expect(rows.length).toBeGreaterThan(300);
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
        expect(['pdf', 'docx', 'unsupported']).toContain(result.kind);
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
