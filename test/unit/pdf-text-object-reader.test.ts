import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFNumber,
  PDFObjectParser,
  PDFPageLeaf,
  type PDFObject,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import '../../src/formats/pdf/index.js'; // the PDF check's parser hooks, as the text layer has them
import { afterObjectHeader, readObject } from '../../src/formats/pdf-text/object-reader.js';

/** An object's class and text, all the way down: what two parses must agree on. */
function shape(o: PDFObject): string {
  if (o instanceof PDFDict)
    return `${o.constructor.name}{${[...o.entries()].map(([k, v]) => `${k.toString()}:${shape(v)}`).join(',')}}`;
  if (o instanceof PDFArray) return `[${o.asArray().map(shape).join(',')}]`;
  const sign = o instanceof PDFNumber && Object.is(o.asNumber(), -0) ? '-0' : '';
  return `${o.constructor.name}(${o.toString()})${sign}`;
}

function pdfLib(text: string): string {
  try {
    const bytes = Buffer.from(text, 'latin1');
    return shape(PDFObjectParser.forBytes(bytes, PDFContext.create()).parseObject());
  } catch {
    return 'refused';
  }
}

const read = (text: string) => readObject(Buffer.from(text, 'latin1'), 0, PDFContext.create());

describe('the text layer object reader', () => {
  const plain = [
    '<< /A 1 /B -2.5 /C [1 2 R 3 0 R] /D (a\\)b(c)) /E <41 42> /F true /G null >>',
    '<< /H .5 /I -.5 /J +3 /K 5. /L -0 /M 595.303937007874 /N 007 >>',
    '[1 2 3 R 4]',
    '[%comment\n1%another\n]',
    '<</A<</B[[[]]]>>>>',
    '<< /A 1 /B 2>>',
    '<</A 1/B 2>>',
    '<< /A/B>>',
    '<< /A 1 % a comment\n >>',
    '[true false null]',
    'truex',
    '0.000001',
    '[1.2.3]',
    '<< /Type /Page /MediaBox [0 0 612 792] >>',
  ];

  it.each(plain)('reads %j as pdf-lib does', (text) => {
    const object = read(text);
    expect(object).toBeDefined();
    expect(shape(object!)).toBe(pdfLib(text));
  });

  const leftToPdfLib = [
    '<< /Length 2 >>stream\nxx\nendstream',
    '[ /a#20b ]',
    '[--5]',
    '[nullx]',
    '<< /A >>',
    '12345678901234567890',
    '(unbalanced',
    '<abc',
    '[1 2',
    `${'['.repeat(100)}${']'.repeat(100)}`,
  ];

  it.each(leftToPdfLib)('leaves %j to pdf-lib', (text) => {
    expect(read(text)).toBeUndefined();
  });

  it('makes page dictionaries the class pdf-lib makes', () => {
    expect(read('<< /Type /Page >>')).toBeInstanceOf(PDFPageLeaf);
  });

  it('finds where an object starts after its header, as the header pattern does', () => {
    const at = (text: string) => afterObjectHeader(Buffer.from(text, 'latin1'), 0);
    expect(at('12 0 obj<<>>')).toBe(8);
    expect(at(' \n12\t0\r\nobj 1')).toBe(11);
    expect(at('12 0obj')).toBe(-1);
    expect(at('12 obj')).toBe(-1);
    expect(at(`${' '.repeat(40)}12 0 obj`)).toBe(48);
    expect(at(`${' '.repeat(41)}12 0 obj`)).toBe(-1);
  });
});
