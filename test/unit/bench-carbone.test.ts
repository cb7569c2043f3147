import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PizZip from 'pizzip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { assertW1Filled, missingW1Values } from '../../bench/filled-check.js';
import {
  carboneData,
  carboneTemplate,
  carboneXml,
  type FixtureTag,
} from '../../bench/raw/carbone-template.js';
import { projectRoot } from '../../src/base/paths/index.js';

const root = projectRoot();
const w1 = readFileSync(join(root, 'templates/lease/template.docx'));
const tags = JSON.parse(
  readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as FixtureTag[];

describe("W1's Carbone template (bench/raw/carbone-template.ts)", () => {
  it('writes a tag split over runs whole into its first run and keeps the XML between', () => {
    const xml =
      '<w:r><w:t>{tenant_</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>name}</w:t></w:r><w:t>, {city}.</w:t>';
    expect(carboneXml(xml, [])).toBe(
      '<w:r><w:t>{d.tenant_name}</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t></w:t></w:r><w:t>, {d.city}.</w:t>',
    );
  });

  it("gives dates and numbers the fixture's format, and sections Carbone's show blocks", () => {
    const formats: FixtureTag[] = [
      { tag: 'day', value: '2025-03-05', type: 'date', format: 'D. MMMM YYYY' },
      { tag: 'rent', value: '9850', type: 'number', format: '#,##0.00' },
      { tag: 'kr', value: 1, type: 'number', format: '#,##0' },
    ];
    expect(carboneXml('{day} {rent} {kr} {#pets}a{/pets}{^pets}b{/pets}', formats)).toBe(
      "{d.day:formatD('D. MMMM YYYY')} {d.rent:formatN(2)} {d.kr:formatN(0)} " +
        '{d.pets:ifEQ(true):showBegin}a{d.pets:showEnd}{d.pets:ifNE(true):showBegin}b{d.pets:showEnd}',
    );
  });

  it('refuses a marker it cannot copy rather than leaving it for Carbone to print', () => {
    expect(() => carboneXml('{a.b | upper}', [])).toThrow(/cannot take/);
  });

  it("leaves none of docxtemplater's markers in W1, in its body, header and footer", () => {
    const zip = new PizZip(carboneTemplate(w1, tags));
    for (const part of ['word/document.xml', 'word/header1.xml', 'word/footer1.xml']) {
      const text = zip
        .file(part)!
        .asText()
        .replace(/<[^>]*>/g, '');
      const markers = text.match(/\{[^}]*\}/g) ?? [];
      expect(markers.length, part).toBeGreaterThan(0);
      for (const m of markers) expect(m, part).toMatch(/^\{d\.[a-z_]+(:[^}]*)?\}$/);
    }
    expect(carboneData(tags).tenant_name).toBe('Mette Sørensen');
  });
});

async function pdfOf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([600, 400]);
  lines.forEach((line, i) => page.drawText(line, { x: 20, y: 360 - 20 * i, size: 10, font }));
  return doc.save();
}

describe("the check of a contender's W1 PDF (bench/filled-check.ts)", () => {
  const filled = [
    'Udlejer: Ejendomsselskabet Å & Ø ApS, Havnegade 12.',
    'Lejer: Mette Sørensen, Vestergade 3.',
    'Den årlige leje er fastsat til 9,850.00 kr. pr. måned.',
    'indgået den 5. marts 2025 i Aarhus',
    'Jens Sørensen indestår som selvskyldnerkautionist',
  ];

  it('passes a PDF with every filled value', async () => {
    const pdf = await pdfOf(filled);
    expect(missingW1Values(pdf)).toEqual([]);
    expect(() => assertW1Filled('X', pdf)).not.toThrow();
  });

  it('fails a PDF whose tags were left empty, naming what it lacks', async () => {
    const pdf = await pdfOf(
      filled.map((l) => l.replace('Mette Sørensen', '').replace(/9,850/, '')),
    );
    expect(missingW1Values(pdf)).toEqual([
      "the tenant's name (Mette Sørensen)",
      'the monthly rent (9850.00)',
    ]);
    expect(() => assertW1Filled('Carbone 3', pdf)).toThrow(/Carbone 3's W1 PDF lacks/);
  });
});
