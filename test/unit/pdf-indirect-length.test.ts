import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkPdf } from '../../src/formats/pdf/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * A one-page PDF as LibreOffice writes them: the content stream's /Length is an indirect object
 * that follows the stream, so a parser must find `endstream` by searching. Its deflated content
 * is chosen to end in the given byte.
 */
function pdfWithContentEndingIn(last: number): { bytes: Buffer; text: string } {
  let text = '';
  let data = Buffer.alloc(0);
  for (let i = 0; data.length === 0 || data[data.length - 1] !== last; i++) {
    text = `Hello ${i}`;
    // zlib ends with the Adler-32 of the content, whose last byte moves with the sum of its bytes:
    // the digits of i alone reach some bytes only past a million tries (80 s), while a comment of
    // i % 256 a's (97, odd) reaches every one within 256.
    data = deflateSync(
      Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET\n%${'a'.repeat(i % 256)}`),
    );
  }
  const offsets: number[] = [];
  let pdf = '%PDF-1.7\n';
  const add = (object: string) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += object;
  };
  add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n');
  add(
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 6 0 R >> >> >>\nendobj\n',
  );
  add(
    `4 0 obj\n<< /Length 5 0 R /Filter /FlateDecode >>\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`,
  );
  add(`5 0 obj\n${data.length}\nendobj\n`);
  add('6 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n');
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf +=
    'xref\n0 7\n0000000000 65535 f \n' +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { bytes: Buffer.from(pdf, 'latin1'), text };
}

describe('PDF check: streams whose /Length is indirect', () => {
  it.each([
    ['CR', 0x0d],
    ['LF', 0x0a],
    ['another byte', 0x41],
  ])('accepts content whose data ends in %s, as poppler reads it', async (_name, last) => {
    const { bytes, text } = pdfWithContentEndingIn(last);
    const file = join(testDir('docpipe-pdf-length-'), 'one.pdf');
    writeFileSync(file, bytes);
    const poppler = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(poppler.status).toBe(0);
    expect(poppler.stdout).toContain(text);
    // pdf-lib cut the data's own last CR or LF with the line break before `endstream`, and the
    // content then failed to inflate: about one produced PDF in a hundred was refused.
    await expect(checkPdf(bytes, 'document', 'produced')).resolves.toEqual({ pages: 1 });
  });
});
