import { describe, expect, it } from 'vitest';
import { openDocx, sniff, sniffBytes } from '../../src/formats/sniff/index.js';
import { writeZip, type NewZipItem } from '../../src/formats/zip/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { patchEntry } from '../helpers/zip-patch.js';

const replace = (name: string, data: string | Buffer) => (entries: NewZipItem[]) =>
  entries.map((e) =>
    e.name === name ? { name, data: typeof data === 'string' ? Buffer.from(data) : data } : e,
  );

const doctypeBody =
  '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>' +
  '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>';

describe('sniff: real .docx', () => {
  it('accepts a minimal package and names its main part', () => {
    expect(sniffBytes(buildDocx({ body: para('hi') }))).toEqual({
      kind: 'docx',
      mainPart: 'word/document.xml',
      strict: false,
    });
  });

  it('follows _rels/.rels to a main part not at word/document.xml', () => {
    const docx = buildDocx({ body: para('hi'), mainPart: 'word/document2.xml' });
    expect(sniffBytes(docx)).toMatchObject({ kind: 'docx', mainPart: 'word/document2.xml' });
  });

  it('accepts strict OOXML', () => {
    expect(sniffBytes(buildDocx({ body: para('hi'), strict: true }))).toMatchObject({
      kind: 'docx',
      strict: true,
    });
  });

  it('refuses a package whose main part is missing or not declared', () => {
    const missing = buildDocx({
      body: para('x'),
      mutate: (es) => es.filter((e) => e.name !== 'word/document.xml'),
    });
    expect(sniffBytes(missing)).toMatchObject({ kind: 'unsupported', reason: 'damaged' });
    const noRels = buildDocx({
      body: para('x'),
      mutate: (es) => es.filter((e) => e.name !== '_rels/.rels'),
    });
    expect(sniffBytes(noRels)).toMatchObject({ kind: 'unsupported', reason: 'damaged' });
  });
});

describe('sniff: other OOXML and zips', () => {
  const cases: [string, string, string][] = [
    ['application/vnd.ms-word.document.macroEnabled.main+xml', 'macro-enabled', '.docm'],
    ['application/vnd.ms-word.template.macroEnabledTemplate.main+xml', 'macro-enabled', '.dotm'],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
      'template',
      '.dotx',
    ],
    [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      'spreadsheet',
      'xlsx',
    ],
    [
      'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      'presentation',
      'pptx',
    ],
  ];
  for (const [contentType, reason, label] of cases) {
    it(`refuses ${label} as ${reason}`, () => {
      expect(
        sniffBytes(buildDocx({ body: para('x'), mainContentType: contentType })),
      ).toMatchObject({
        kind: 'unsupported',
        reason,
      });
    });
  }

  it('refuses a .docx that carries a VBA project whatever its main content type', () => {
    const docx = buildDocx({
      body: para('x'),
      extra: [
        {
          name: 'word/vbaProject.bin',
          data: Buffer.from('fake'),
          contentType: 'application/vnd.ms-office.vbaProject',
        },
      ],
    });
    expect(sniffBytes(docx)).toMatchObject({ kind: 'unsupported', reason: 'macro-enabled' });
  });

  it('tells OpenDocument, plain zips and empty zips apart', () => {
    const odt = writeZip([
      { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.text') },
    ]);
    expect(sniffBytes(odt)).toMatchObject({ reason: 'opendocument' });
    expect(sniffBytes(writeZip([{ name: 'hello.txt', data: Buffer.from('hi') }]))).toMatchObject({
      reason: 'zip',
    });
    expect(sniffBytes(writeZip([]))).toMatchObject({ reason: 'zip' });
  });
});

describe('sniff: XML with DOCTYPE is refused in any part', () => {
  const parts = [
    'word/document.xml',
    'word/header1.xml',
    '[Content_Types].xml',
    '_rels/.rels',
    'word/_rels/document.xml.rels',
  ];
  for (const part of parts) {
    it(`in ${part}`, () => {
      const base = buildDocx({ body: para('x'), header: para('h') });
      const original = openDocx(base).archive.read(part).toString('utf8');
      const withDoctype = original.replace(
        /^(<\?xml[^>]*\?>)?/,
        '$1<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:9/">]>',
      );
      const docx = buildDocx({
        body: para('x'),
        header: para('h'),
        mutate: replace(part, withDoctype),
      });
      expect(sniffBytes(docx)).toMatchObject({ kind: 'unsupported', reason: 'xml-doctype' });
    });
  }

  it('in a custom XML part, in lower case, and in UTF-16', () => {
    const custom = buildDocx({
      body: para('x'),
      extra: [{ name: 'customXml/item1.xml', data: '<?xml version="1.0"?><!doctype r><r/>' }],
    });
    expect(sniffBytes(custom)).toMatchObject({ reason: 'xml-doctype' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doctypeBody, 'utf16le')]);
    const docx = buildDocx({ body: para('x'), mutate: replace('word/document.xml', utf16) });
    expect(sniffBytes(docx)).toMatchObject({ reason: 'xml-doctype' });
  });

  it('refuses the billion-laughs document', () => {
    const docx = buildDocx({ body: para('x'), mutate: replace('word/document.xml', doctypeBody) });
    expect(sniffBytes(docx)).toMatchObject({ reason: 'xml-doctype' });
  });
});

describe('sniff: zip bombs and damaged packages', () => {
  it('refuses a .docx whose document part claims a bomb ratio', () => {
    const huge = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p/>'.repeat(2_000_000)}</w:body></w:document>`;
    const docx = buildDocx({ body: para('x'), mutate: replace('word/document.xml', huge) });
    expect(sniffBytes(docx)).toMatchObject({ kind: 'unsupported', reason: 'too-large' });
  });

  it('refuses a .docx whose header under-declares the size (running cap) as damaged', () => {
    const big = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p/>'.repeat(100_000)}</w:body></w:document>`;
    const docx = patchEntry(
      buildDocx({ body: para('x'), mutate: replace('word/document.xml', big) }),
      'word/document.xml',
      {
        uncompressedSize: 2000,
      },
    );
    expect(sniffBytes(docx)).toMatchObject({ kind: 'unsupported', reason: 'damaged' });
  });

  it('refuses an input larger than maxInputBytes before looking inside', () => {
    const docx = buildDocx({ body: para('x') });
    expect(
      sniffBytes(docx, {
        maxInputBytes: 100,
        maxEntries: 10,
        maxUncompressedBytes: 1e6,
        maxCompressionRatio: 100,
        ratioCheckMinBytes: 1e6,
      }),
    ).toMatchObject({ reason: 'too-large' });
  });

  it('turns every truncation of a .docx into a typed result, never an exception', async () => {
    const docx = buildDocx({ body: para('x'), header: para('h') });
    for (let cut = 1; cut < docx.length; cut += 37) {
      const result = await sniff(docx.subarray(0, cut));
      expect(result.kind).toBe('unsupported');
    }
  });

  it('openDocx throws unsupported-file-type naming the document field', () => {
    expect(() => openDocx(Buffer.from('%PDF-1.4\n...'), undefined, 'documents[2]')).toThrowError(
      expect.objectContaining({
        slug: 'unsupported-file-type',
        details: [expect.objectContaining({ field: 'documents[2]' })],
      }),
    );
  });
});
