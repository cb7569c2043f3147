import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { TextLayer } from '../../src/formats/pdf-text/index.js';
import {
  canonicalJson,
  producersOf,
  valuesNotShown,
  valuesSha256,
} from '../../src/render/pipeline/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('canonical JSON of the values', () => {
  it('sorts keys at every depth, keeps array order, and writes no white space', () => {
    const values = [
      { value: 'Anna  Jensen', tag: 'tenant', type: 'text' },
      { type: 'list', tag: 'rows', value: [{ b: 2, a: { d: 'ø', c: null } }] },
    ];
    expect(canonicalJson(values)).toBe(
      '[{"tag":"tenant","type":"text","value":"Anna  Jensen"},' +
        '{"tag":"rows","type":"list","value":[{"a":{"c":null,"d":"ø"},"b":2}]}]',
    );
  });

  it('escapes as JSON.stringify does and sorts keys by UTF-16 code units', () => {
    expect(canonicalJson({ é: 1, Z: 2, a: 'line\n"q"' })).toBe(
      '{"Z":2,"a":"line\\n\\"q\\"","é":1}',
    );
  });

  it('hashes equal values equally whatever their key order, and no values as null', () => {
    const a = [{ tag: 'x', value: 1, type: 'number' }];
    const b = [{ type: 'number', value: 1, tag: 'x' }];
    expect(valuesSha256(a)).toBe(valuesSha256(b));
    expect(valuesSha256(a)).toBe(sha256('[{"tag":"x","type":"number","value":1}]'));
    expect(valuesSha256([{ tag: 'x', value: 2, type: 'number' }])).not.toBe(valuesSha256(a));
    expect(valuesSha256([])).toBeNull();
    expect(valuesSha256(undefined)).toBeNull();
  });
});

describe('producers of a PDF', () => {
  it('reads UTF-16 hex and literal producers in file order', () => {
    const pdf = Buffer.from(
      '%PDF-1.7\n1 0 obj <</Producer<FEFF004C0069006200720065004F0066006600690063006500200037002E0034>>> endobj\n' +
        '9 0 obj <</Title (x) /Producer (docpipe 1.2.3)>> endobj\n',
      'latin1',
    );
    expect(producersOf(pdf)).toEqual(['LibreOffice 7.4', 'docpipe 1.2.3']);
  });
});

async function pdfWith(lines: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const page of lines) {
    const p = doc.addPage([400, 400]);
    page.forEach((line, i) => p.drawText(line, { x: 20, y: 360 - i * 20, size: 12, font }));
  }
  return doc.save();
}

describe('values the text layer does not show', () => {
  it('finds values across white space and line-end hyphenation, and names the missing one', async () => {
    const pdf = await pdfWith([
      ['Lease for Anna', 'Jensen, rent 12.500,50 kr.', 'The tenant agrees to the house-'],
      ['rules of the build-', 'ing.'],
    ]);
    const shown = [
      { tag: 'tenant', index: 0, text: 'Anna   Jensen' },
      { tag: 'rent', index: 1, text: '12.500,50' },
      { tag: 'rules', index: 2, text: 'house-rules' },
      { tag: 'place', index: 3, text: 'building' },
      { tag: 'pet', index: 4, text: 'a cat' },
    ];
    const notices = valuesNotShown(new TextLayer(pdf), shown, 'documents[2]');
    expect(notices).toEqual([
      expect.objectContaining({ code: 'value-not-shown', field: 'documents[2].tags.pet' }),
    ]);
  });

  it('reads no page when no value is to be checked', () => {
    // Bytes that are no PDF: reading a page would throw.
    const layer = {
      texts: () => {
        throw new Error('read');
      },
    } as unknown as TextLayer;
    expect(valuesNotShown(layer, [], 'documents[0]')).toEqual([]);
  });
});
