import { PDFContext, PDFDict, PDFName, PDFObjectParser, type PDFObject } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { useParserHooks } from '../../src/formats/pdf/parser-hooks.js';
import {
  decodePdfName,
  hasEncryptionDictionary,
  namesIn,
} from '../../src/formats/pdf-bytes/index.js';

describe('PDF names', () => {
  it.each([
    ['Encrypt', 'Encrypt'],
    ['Encr#79pt', 'Encrypt'],
    ['#45ncrypt', 'Encrypt'],
    ['E#6ecrypt', 'Encrypt'],
    ['E#6Ecrypt', 'Encrypt'],
    ['#45#6E#63#72#79#70#74', 'Encrypt'],
    ['A#23B', 'A#B'],
    ['A#2', 'A#2'],
    ['A#zz', 'A#zz'],
    ['#', '#'],
    ['Lin#20Space', 'Lin Space'],
  ])('%s is /%s', (raw, name) => {
    expect(decodePdfName(raw)).toBe(name);
  });

  it('lists the names of a dictionary, decoded', () => {
    expect(namesIn('<< /Si#7Ae 3 /Root 1 0 R /E#6ecrypt 2 0 R /Type/XRef >>')).toEqual([
      'Size',
      'Root',
      'Encrypt',
      'Type',
      'XRef',
    ]);
  });
});

describe('the encryption scan', () => {
  const trailer = (key: string, size = '/Size 9') =>
    Buffer.from(
      `%PDF-1.7\n1 0 obj\n<< >>\nendobj\ntrailer\n<< ${size} /Root 1 0 R ${key} 5 0 R >>\nstartxref\n9\n%%EOF\n`,
      'latin1',
    );

  it.each([
    '/Encrypt',
    '/Encr#79pt',
    '/#45ncrypt',
    '/E#6ecrypt',
    '/E#6Ecrypt',
    '/#45#6e#63#72#79#70#74',
  ])('finds %s in a trailer', (key) => {
    expect(hasEncryptionDictionary(trailer(key))).toBe(true);
    expect(hasEncryptionDictionary(trailer(key, '/Si#7ae 9'))).toBe(true);
  });

  it('leaves other names and dictionaries that are no trailer alone', () => {
    expect(hasEncryptionDictionary(trailer('/EncryptMetadata'))).toBe(false);
    expect(hasEncryptionDictionary(trailer('/Encr#79ptX'))).toBe(false);
    expect(hasEncryptionDictionary(trailer('/Encr#79p'))).toBe(false);
    // A dictionary without /Size is not a trailer.
    expect(hasEncryptionDictionary(trailer('/Encr#79pt', '/Length 9'))).toBe(false);
  });
});

describe("pdf-lib's parser with docpipe's hooks", () => {
  afterEach(() => useParserHooks(true));

  function parse(text: string): PDFObject {
    const parser = PDFObjectParser.forBytes(Buffer.from(text, 'latin1'), PDFContext.create());
    return parser.parseObject();
  }

  it('decodes escapes in either hex case, as readers do, and keeps a literal #', () => {
    useParserHooks(true);
    const dict = parse('<< /R#6fot 1 0 R /E#6Ecrypt 2 0 R /A#23B 3 /Type /P#61ges >>') as PDFDict;
    expect(dict.has(PDFName.of('Root'))).toBe(true);
    expect(dict.has(PDFName.of('Encrypt'))).toBe(true);
    expect(dict.get(PDFName.of('Type'))).toBe(PDFName.of('Pages'));
    const literal = dict.keys().find((key) => key.decodeText().startsWith('A'));
    expect(literal?.decodeText()).toBe('A#B');
    expect(literal?.asString()).toBe('/A#23B');
  });

  it('without them, pdf-lib misses lower-case escapes: the reason for the hook', () => {
    useParserHooks(false);
    const dict = parse('<< /R#6fot 1 0 R /E#6ecrypt 2 0 R >>') as PDFDict;
    expect(dict.has(PDFName.of('Root'))).toBe(false);
    expect(dict.has(PDFName.of('Encrypt'))).toBe(false);
  });
});
