import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredDocumentUrl } from '../../src/render/storage/index.js';
import { corpusRows } from '../helpers/corpus.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { PUBLIC_URL, filesApp, multipartBody } from './http-files-setup.js';

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

/**
 * The manifest's rows whose outcome is not its expected_kind, as in corpus-sniff.test.ts: an
 * encrypted PDF poppler opens is refused, and the `either` rows come out as sniffing pins there.
 */
const OVERRULED: Record<string, string> = { 'pdf/pdfjs__bug1782186.pdf': 'refused:encrypted' };
const EITHER_ACCEPTED = new Set([
  'pdf/pdfjs__Brotli-Prototype-FileA.pdf',
  'pdf/pdfjs__GHOSTSCRIPT-698804-1-fuzzed.pdf',
  'pdf/pdfjs__REDHAT-1531897-0.pdf',
  'pdf/pdfjs__bomb_giant.pdf',
  'pdf/pdfjs__helloworld-bad.pdf',
  'pdf/pdfjs__issue9418.pdf',
  'pdf/pdfjs__poppler-67295-0.pdf',
  'pdf/pdfjs__xref_command_missing.pdf',
]);

/** An upload's outcome in one word: `pdf`, `docx`, or `refused:<sniff reason>`. */
function outcomeOf(status: number, body: { type?: string; message?: string }): string {
  if (status === 200) return body.type!;
  const reason = /^the file is neither a PDF nor a real \.docx: file: ([a-z-]+): /.exec(
    body.message ?? '',
  )?.[1];
  return `refused:${reason ?? `${status} ${body.message}`}`;
}

describe('uploads of the whole corpus', () => {
  it('accepts exactly the PDFs and real .docx files, and refuses the rest with the reason', async () => {
    const rows = corpusRows();
    expect(rows).toHaveLength(304);
    const files = await filesApp(await redis.lane(), {
      maxUploadBytes: 64 * 1024 * 1024,
      bodyLimitBytes: 100 * 1024 * 1024,
    });
    const counts: Record<string, number> = {};
    const wrong: string[] = [];
    for (const row of rows) {
      const bytes = readFileSync(row.path);
      const form = await multipartBody({ file: { bytes, filename: basename(row.file) } });
      const res = await files.app.inject({
        method: 'POST',
        url: '/v3/company/acme/file/upload',
        ...form,
      });
      const outcome = outcomeOf(res.statusCode, res.json());
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      const expected =
        OVERRULED[row.file] ??
        (row.expectedKind === 'docx' || row.expectedKind === 'pdf'
          ? row.expectedKind
          : row.expectedKind === 'either'
            ? EITHER_ACCEPTED.has(row.file)
              ? 'pdf'
              : 'refused'
            : 'refused');
      if (outcome !== expected && !(expected === 'refused' && outcome.startsWith('refused:')))
        wrong.push(`${row.file}: expected ${expected}, got ${outcome}`);
      if (res.statusCode === 200) {
        const url = res.json<{ url: string }>().url;
        const key = parseStoredDocumentUrl(url, PUBLIC_URL)?.key;
        if (!key || !(await files.storage.get(key))?.equals(bytes))
          wrong.push(`${row.file}: not stored at ${url}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(counts).toEqual({
      docx: 221,
      pdf: 29,
      'refused:damaged': 14,
      'refused:empty': 1,
      'refused:encrypted': 16,
      'refused:legacy-office': 2,
      'refused:macro-enabled': 3,
      'refused:opendocument': 2,
      'refused:presentation': 1,
      'refused:rtf': 3,
      'refused:spreadsheet': 1,
      'refused:too-large': 1,
      'refused:unknown': 4,
      'refused:xml-doctype': 1,
      'refused:zip': 5,
    });
  }, 120_000);
});
