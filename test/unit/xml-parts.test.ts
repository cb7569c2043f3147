import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../src/document/fill/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { decodeXml, sniffXml } from '../../src/formats/opc/index.js';
import { openDocx, sniffBytes } from '../../src/formats/sniff/index.js';
import { ZipArchive, writeZip, type NewZipItem } from '../../src/formats/zip/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEADER_CT = 'application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml';

const header = (text: string, prolog = '<?xml version="1.0" encoding="UTF-8"?>') =>
  `${prolog}<w:hdr xmlns:w="${W}"><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:hdr>`;
const doctype = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>';

/**
 * A .docx whose default header is the part `name`, with the given bytes and (when given) an
 * Override content type; the header relationship and the sectPr reference point at it.
 */
function withHeaderPart(name: string, data: Buffer | string, contentType?: string): Buffer {
  return buildDocx({
    body: para('Body {name}'),
    extra: [{ name: `word/${name}`, data, ...(contentType ? { contentType } : {}) }],
    rels: [`<Relationship Id="rIdH" Type="${REL}/header" Target="${name}"/>`],
    mutate: (entries) =>
      entries.map((e) =>
        e.name === 'word/document.xml'
          ? {
              name: e.name,
              data: Buffer.from(
                e.data
                  .toString('utf8')
                  .replace(
                    '<w:sectPr>',
                    '<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/>',
                  ),
              ),
            }
          : e,
      ),
  });
}

/** A .docx with one more part that nothing refers to. */
const withPart = (name: string, data: Buffer | string, contentType?: string) =>
  buildDocx({
    body: para('x'),
    extra: [{ name, data, ...(contentType ? { contentType } : {}) }],
  });

/** The same package with every entry stored instead of deflated. */
function stored(docx: Buffer): Buffer {
  const archive = ZipArchive.open(docx);
  const items: NewZipItem[] = archive.entries.map((e) => ({ name: e.name, data: archive.read(e) }));
  return writeZip(items, { compress: false });
}

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const utf32le = (text: string) => {
  const out = Buffer.alloc(text.length * 4);
  for (let i = 0; i < text.length; i++) out.writeUInt32LE(text.charCodeAt(i), i * 4);
  return out;
};
const utf32be = (text: string) => {
  const out = Buffer.alloc(text.length * 4);
  for (let i = 0; i < text.length; i++) out.writeUInt32BE(text.charCodeAt(i), i * 4);
  return out;
};
/** `<?xml version="1.0" encoding="IBM037"?>` and the rest, in EBCDIC code page 037. */
const ebcdic = (text: string) => {
  const table: Record<string, number> = {
    '<': 0x4c,
    '?': 0x6f,
    x: 0xa7,
    m: 0x94,
    l: 0x93,
    ' ': 0x40,
  };
  return Buffer.from([...text].map((c) => table[c] ?? 0x6f));
};

describe('XML parts are found by content, whatever their name or declared type', () => {
  it('refuses a DOCTYPE in a header part named .dat, with no content type or a binary one', () => {
    for (const docx of [
      withHeaderPart('header1.dat', header('h', `<?xml version="1.0"?>${doctype}`)),
      withHeaderPart('header1.dat', header('h', doctype), 'application/octet-stream'),
      stored(withHeaderPart('header1.dat', header('h', doctype))),
    ]) {
      expect(sniffBytes(docx)).toEqual({
        kind: 'unsupported',
        reason: 'xml-doctype',
        message: 'XML part word/header1.dat declares a DOCTYPE',
      });
    }
  });

  it('refuses a DOCTYPE in a part nothing refers to, after a byte order mark or long white space', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${doctype}<r/>`)]);
    expect(sniffBytes(withPart('customXml/item1.bin', bom))).toMatchObject({
      reason: 'xml-doctype',
    });
    const spaced = `${' \r\n\t'.repeat(5000)}<!doctype r SYSTEM "http://127.0.0.1:9/"><r/>`;
    expect(sniffBytes(withPart('word/data.bin', spaced))).toMatchObject({ reason: 'xml-doctype' });
    const utf16Spaced = Buffer.from(
      `${' '.repeat(3000)}<!DOCTYPE r [<!ENTITY e "x">]><r/>`,
      'utf16le',
    );
    expect(sniffBytes(withPart('word/data', utf16Spaced))).toMatchObject({
      reason: 'xml-doctype',
    });
  });

  it('lets a part declared as something else carry a bare DOCTYPE, which defines nothing', () => {
    const html = (dt: string) => `${dt}\n<html><body><p>Alt chunk</p></body></html>`;
    expect(
      sniffBytes(withPart('word/htmlDoc.html', html('<!DOCTYPE html>'), 'text/html')),
    ).toMatchObject({ kind: 'docx' });
    for (const dt of [
      '<!DOCTYPE html SYSTEM "http://127.0.0.1:9/x.dtd">',
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">',
      '<!DOCTYPE html [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
      '<!DOCTYPE html>\n<!DOCTYPE html [<!ENTITY e "x">]>',
      '<!DOCTYPE',
    ]) {
      expect(sniffBytes(withPart('word/htmlDoc.html', html(dt), 'text/html'))).toMatchObject({
        reason: 'xml-doctype',
      });
    }
    // A part that says it is XML keeps the stricter rule: no DOCTYPE at all.
    expect(
      sniffBytes(withPart('word/page.xhtml', html('<!DOCTYPE html>'), 'application/xhtml+xml')),
    ).toMatchObject({ reason: 'xml-doctype' });
  });

  it('accepts binary parts as they are and leaves them out of the XML parts', () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(300_000)]);
    const docx = buildDocx({
      body: para('Hello {name}'),
      extra: [
        { name: 'word/media/image1.png', data: png },
        { name: 'word/fonts/font1.odttf', data: randomBytes(50_000) },
        { name: 'word/embeddings/empty.bin', data: Buffer.alloc(0) },
        { name: 'word/media/spaces.bin', data: Buffer.from('   \n  ') },
        { name: 'word/media/text.bin', data: Buffer.from('plain text, not <xml>') },
      ],
    });
    for (const input of [docx, stored(docx)]) {
      const pkg = openDocx(input);
      expect(pkg.xmlParts).toEqual([
        '[Content_Types].xml',
        'word/document.xml',
        'word/_rels/document.xml.rels',
        '_rels/.rels',
      ]);
      const filled = fillTemplate(input, [{ tag: 'name', value: 'Ida', type: 'text' }]).docx;
      expect(ZipArchive.open(filled).read('word/media/image1.png').equals(png)).toBe(true);
    }
  });

  it('counts a part XML by content among the XML parts when its content type names it', () => {
    const docx = withHeaderPart('header1.dat', header('Header {name}'), HEADER_CT);
    expect(openDocx(docx).xmlParts).toContain('word/header1.dat');
    const filled = fillTemplate(docx, [{ tag: 'name', value: 'Ida', type: 'text' }]).docx;
    expect(documentText(filled).map((p) => `${p.part}: ${p.text}`)).toEqual([
      'body: Body Ida\n',
      'header: Header Ida\n',
    ]);
  });

  it('refuses a header part whose content type does not call it one: it would show unfilled', () => {
    expect(sniffBytes(withHeaderPart('header1.dat', header('Header {name}')))).toEqual({
      kind: 'unsupported',
      reason: 'damaged',
      message: `part word/header1.dat is the document's header but its content type is not declared, not ${HEADER_CT}: Word refuses such a package, and its fields would not be filled`,
    });
    expect(
      sniffBytes(withHeaderPart('header2.xml', header('Header {name}'), 'application/xml')),
    ).toMatchObject({ reason: 'damaged', message: expect.stringContaining('"application/xml"') });
  });
});

describe('XML parts in encodings docpipe does not read are refused, not skipped', () => {
  const text = header('h');
  const cases: [string, Buffer, string][] = [
    [
      'UTF-32LE with a BOM',
      Buffer.concat([Buffer.from('fffe0000', 'hex'), utf32le(text)]),
      'UTF-32LE',
    ],
    [
      'UTF-32BE with a BOM',
      Buffer.concat([Buffer.from('0000feff', 'hex'), utf32be(text)]),
      'UTF-32BE',
    ],
    ['UTF-32LE without a BOM', utf32le(text), 'UTF-32LE'],
    ['UTF-32BE without a BOM', utf32be(text), 'UTF-32BE'],
    ['EBCDIC', ebcdic('<?xml version'), 'EBCDIC'],
    [
      'a declared ISO-8859-1',
      Buffer.from(header('Søren', '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1'),
      '"ISO-8859-1"',
    ],
    [
      'UTF-16 declaring UTF-8',
      Buffer.from(header('h'), 'utf16le'),
      'UTF-16LE but declares the encoding "UTF-8"',
    ],
  ];
  for (const [label, bytes, says] of cases) {
    it(`in ${label}, as a header named .xml or .dat, and as a part nothing refers to`, () => {
      for (const docx of [
        withHeaderPart('header1.xml', bytes, HEADER_CT),
        withHeaderPart('header1.dat', bytes),
        withPart('customXml/item9.bin', bytes),
      ]) {
        const result = sniffBytes(docx);
        expect(result).toMatchObject({ kind: 'unsupported', reason: 'damaged' });
        expect(result.kind === 'unsupported' && result.message).toMatch(
          new RegExp(
            `^XML part \\S+ .*${says.replace(/[()"]/g, '.')}.*; docpipe reads XML parts in UTF-8 or UTF-16, as OOXML requires$`,
          ),
        );
      }
    });
  }

  it('reads UTF-16 in either byte order, with or without a byte order mark, and fills it', () => {
    const prolog = '<?xml version="1.0" encoding="UTF-16"?>';
    const le = Buffer.from(header('Header {name}', prolog), 'utf16le');
    const be = utf16be(header('Header {name}', prolog));
    for (const bytes of [
      le,
      be,
      Buffer.concat([Buffer.from('fffe', 'hex'), le]),
      Buffer.concat([Buffer.from('feff', 'hex'), be]),
      Buffer.from(`\n ${header('Header {name}', '')}`, 'utf16le'),
    ]) {
      const docx = withHeaderPart('header1.xml', bytes, HEADER_CT);
      expect(sniffBytes(docx)).toMatchObject({ kind: 'docx' });
      const filled = fillTemplate(docx, [{ tag: 'name', value: 'Ida', type: 'text' }]).docx;
      expect(documentText(filled).find((p) => p.part === 'header')?.text).toBe('Header Ida\n');
    }
  });
});

describe('sniffXml, the encoding detection itself', () => {
  it.each([
    ['<?xml version="1.0"?><r/>', 'utf-8'],
    ['  <r/>', 'utf-8'],
    ['<?xml version="1.0" encoding="utf8"?><r/>', 'utf-8'],
  ])('reads %j as %s', (text, encoding) => {
    expect(sniffXml(Buffer.from(text), true)).toMatchObject({ kind: 'xml', encoding });
  });

  it('tells white space so far from a part of only white space', () => {
    expect(sniffXml(Buffer.from('    '), false)).toEqual({ kind: 'undecided' });
    expect(sniffXml(Buffer.from('    '), true)).toEqual({ kind: 'not-xml' });
    expect(sniffXml(Buffer.alloc(0), true)).toEqual({ kind: 'not-xml' });
    expect(sniffXml(Buffer.from('GIF89a'), false)).toEqual({ kind: 'not-xml' });
  });

  it('decodes what it detects', () => {
    const text = header('Æøå');
    expect(decodeXml(utf16be(text))).toBe(text);
    expect(decodeXml(Buffer.from(` ${text}`, 'utf16le'))).toBe(` ${text}`);
    expect(decodeXml(Buffer.concat([Buffer.from('efbbbf', 'hex'), Buffer.from(text)]))).toBe(text);
  });
});

describe('a filled UTF-16 part', () => {
  it.each(['UTF-16', 'utf-16le', 'UTF16', 'UTF-16BE'])(
    'is written as UTF-8 declaring UTF-8 when it declared %s, and sniffs again',
    (declared) => {
      const prolog = `<?xml version="1.0" encoding = "${declared}"?>`;
      const text = header('Header {name}', prolog);
      const bytes = /be$/i.test(declared) ? utf16be(text) : Buffer.from(text, 'utf16le');
      const docx = withHeaderPart('header1.xml', bytes, HEADER_CT);
      const filled = fillTemplate(docx, [{ tag: 'name', value: 'Ida', type: 'text' }]).docx;
      const part = ZipArchive.open(filled).read('word/header1.xml').toString('utf8');
      expect(part.startsWith('<?xml version="1.0" encoding = "UTF-8"?>')).toBe(true);
      expect(sniffBytes(filled)).toMatchObject({ kind: 'docx' });
      expect(documentText(filled).find((p) => p.part === 'header')?.text).toBe('Header Ida\n');
    },
  );
});
