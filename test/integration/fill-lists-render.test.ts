import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { type FieldDeclarations } from '../../src/document/values/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { pdfPages } from '../helpers/pdf-text.js';
import { testDir } from '../helpers/test-dir.js';

const cell = (text: string) =>
  `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:tc>`;
const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join('')}</w:tr>`;
const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
  .map((side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="000000"/>`)
  .join('');

/** A quote whose table repeats its second row per line item, with a total the caller computed. */
const quote = buildDocx({
  body:
    para('Quote for {client}') +
    `<w:tbl><w:tblPr><w:tblBorders>${borders}</w:tblBorders></w:tblPr>` +
    `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
    row('Item', 'Quantity', 'Amount') +
    row('{#lines}{description}{#vat} (VAT){/vat}', '{quantity}', '{amount}{/lines}') +
    `</w:tbl>` +
    para('Total: {total}'),
});

const fields: FieldDeclarations = {
  total: { type: 'number', format: '#,##0.00 kr.' },
  lines: {
    type: 'list',
    columns: {
      quantity: { type: 'number', format: '#,##0' },
      amount: { type: 'number', format: '#,##0.00 kr.' },
      vat: { type: 'boolean' },
    },
  },
};

const tags = [
  { tag: 'client', value: 'Nordisk Byg ApS', type: 'text' },
  { tag: 'total', value: 27350.5, type: 'number' },
  {
    tag: 'lines',
    type: 'list',
    value: [
      { description: 'Consulting', quantity: 12, amount: 14400, vat: true },
      { description: 'Travel', quantity: 1, amount: '350.5', vat: false },
      {
        description: 'Licences',
        quantity: 1500,
        amount: { value: 12600, type: 'number', format: '#,##0 kr.' },
        vat: true,
      },
    ],
  },
];

/** The PDF's lines as poppler lays them out (a table row on one line), spaces collapsed. */
function layoutLines(pdf: Uint8Array): string[] {
  const file = join(testDir('docpipe-lists-'), 'quote.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '');
}

let pool: OfficePool;

beforeAll(async () => {
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(() => pool.close());

describe('a table-row loop through LibreOffice', () => {
  it('shows one table row per list member, each cell formatted, in order', async () => {
    const docx = fillTemplate(quote, tags, { fields }).docx;
    const pdf = await pool.convert({ docx, field: 'documents[0]', title: 'Quote' });
    expect(await pdfPages(pdf)).toBe(1);
    expect(layoutLines(pdf)).toEqual([
      'Quote for Nordisk Byg ApS',
      'Item Quantity Amount',
      'Consulting (VAT) 12 14.400,00 kr.',
      'Travel 1 350,50 kr.',
      'Licences (VAT) 1.500 12.600 kr.',
      'Total: 27.350,50 kr.',
    ]);
  });
});
