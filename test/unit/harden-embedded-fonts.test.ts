import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { InlinePreparer, prepareDocument } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  hardenPackage,
  INERT_TARGET,
  MAX_EMBEDDED_DOCUMENTS,
  MAX_EMBEDDING_DEPTH,
  namesEmbeddedFont,
} from '../../src/document/harden/index.js';
import { MAIN_CONTENT_TYPES, decodeXml } from '../../src/formats/opc/index.js';
import { fidelityRefusal, fidelityReport, Renderer } from '../../src/render/pipeline/index.js';
import { DEFAULT_SNIFF_LIMITS, openDocx } from '../../src/formats/sniff/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { ZipArchive } from '../../src/formats/zip/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';
import { ScriptedConverter } from '../helpers/scripted-converter.js';
import { testDir } from '../helpers/test-dir.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
const FONT_TABLE_CT = `${CT}.wordprocessingml.fontTable+xml`;
const FONT_CT = `${CT}.obfuscatedFont`;
const DOCX_CT = `${CT}.wordprocessingml.document`;
const limits = DEFAULT_SNIFF_LIMITS;

/** Stand-ins for obfuscated TrueType data: what matters is that they leave the package. */
const fontBytes = (n: number) => Buffer.alloc(2048, n);

interface EmbeddingSpec {
  /** Inner XML of w:fonts. */
  fonts: string;
  /** Relationships of the font table. */
  fontRels: string[];
  /** Font parts, by entry name. */
  parts: string[];
  /** Relationships of the main part besides the font table's. */
  rels?: string[];
  body?: string;
  /** Writes the font table as UTF-16LE with a byte order mark. */
  utf16?: boolean;
}

/** A Word document that embeds fonts, laid out as Word saves one with "Embed fonts in the file". */
function embeddingDocx(spec: EmbeddingSpec): Buffer {
  const fontTable = `<?xml version="1.0" encoding="${spec.utf16 ? 'UTF-16' : 'UTF-8'}" standalone="yes"?>\n<w:fonts xmlns:w="${W}" xmlns:r="${R}">${spec.fonts}</w:fonts>`;
  return buildDocx({
    body: spec.body ?? para('Kontrakt'),
    rels: [
      `<Relationship Id="rIdFonts" Type="${REL}/fontTable" Target="fontTable.xml"/>`,
      ...(spec.rels ?? []),
    ],
    extra: [
      {
        name: 'word/fontTable.xml',
        data: spec.utf16
          ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fontTable, 'utf16le')])
          : fontTable,
        contentType: FONT_TABLE_CT,
      },
      {
        name: 'word/_rels/fontTable.xml.rels',
        data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${spec.fontRels.join('')}</Relationships>`,
      },
      ...spec.parts.map((name, i) => ({ name, data: fontBytes(i + 1), contentType: FONT_CT })),
    ],
  });
}

const fontRel = (id: string, target: string, type = `${REL}/font`) =>
  `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`;

/** Calibri regular and bold, Cambria regular: three fonts in three parts. */
const threeFonts = (): Buffer =>
  embeddingDocx({
    fonts:
      '<w:font w:name="Calibri"><w:panose1 w:val="020F0502020204030204"/><w:embedRegular r:id="rId1" w:fontKey="{75E47363-20F1-45D4-9A84-815E26C8EAAE}"/><w:embedBold r:id="rId2" w:fontKey="{11111111-20F1-45D4-9A84-815E26C8EAAE}"/></w:font>' +
      '<w:font w:name="Times New Roman"><w:panose1 w:val="02020603050405020304"/></w:font>' +
      '<w:font w:name="Cambria"><w:embedRegular r:id="rId3" w:fontKey="{1DF903E3-2F14-4575-8028-881FEBABF2AB}"/></w:font>',
    fontRels: [
      fontRel('rId1', 'fonts/font1.odttf'),
      fontRel('rId2', 'fonts/font2.odttf'),
      fontRel('rId3', 'fonts/font3.odttf'),
    ],
    parts: ['word/fonts/font1.odttf', 'word/fonts/font2.odttf', 'word/fonts/font3.odttf'],
  });

const names = (docx: Buffer) => ZipArchive.open(docx).entries.map((e) => e.name);
const text = (docx: Buffer, part: string) => decodeXml(ZipArchive.open(docx).read(part));

describe('embedded fonts are removed before conversion', () => {
  it('removes the embed elements, their relationships, the font parts and their overrides', () => {
    const input = threeFonts();
    const hardened = hardenPackage(openDocx(input), limits);
    expect(hardened.embeddedFonts).toEqual([
      {
        family: 'Calibri',
        style: 'regular',
        part: 'word/fontTable.xml',
        fontPart: 'word/fonts/font1.odttf',
      },
      {
        family: 'Calibri',
        style: 'bold',
        part: 'word/fontTable.xml',
        fontPart: 'word/fonts/font2.odttf',
      },
      {
        family: 'Cambria',
        style: 'regular',
        part: 'word/fontTable.xml',
        fontPart: 'word/fonts/font3.odttf',
      },
    ]);
    const docx = hardened.docx!;
    expect(names(input).filter((n) => n.startsWith('word/fonts/'))).toHaveLength(3);
    expect(names(docx).filter((n) => n.startsWith('word/fonts/'))).toEqual([]);
    expect(names(docx)).toEqual(names(input).filter((n) => !n.startsWith('word/fonts/')));
    // The font table still declares the families (Word writes them); nothing points at a font.
    expect(text(docx, 'word/fontTable.xml')).toBe(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:fonts xmlns:w="${W}" xmlns:r="${R}">` +
        '<w:font w:name="Calibri"><w:panose1 w:val="020F0502020204030204"/></w:font>' +
        '<w:font w:name="Times New Roman"><w:panose1 w:val="02020603050405020304"/></w:font>' +
        '<w:font w:name="Cambria"></w:font></w:fonts>',
    );
    expect(text(docx, 'word/_rels/fontTable.xml.rels')).not.toContain('<Relationship ');
    expect(text(docx, '[Content_Types].xml')).not.toContain('odttf');
    expect(text(docx, '[Content_Types].xml')).toContain(`PartName="/word/fontTable.xml"`);
    // What is left is a .docx sniffing accepts, with nothing left to remove.
    expect(hardenPackage(openDocx(docx), limits)).toEqual({ neutralized: [], embeddedFonts: [] });
  });

  it('leaves a document without embedded fonts as it is: the same bytes, no work on a render', () => {
    const plain = buildDocx({
      body: `${para('Kontrakt')}<w:p><w:r><w:drawing><a:blip xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" r:embed="rIdImg"/></w:drawing></w:r></w:p>`,
    });
    expect(hardenPackage(openDocx(plain), limits)).toEqual({ neutralized: [], embeddedFonts: [] });
    const prepared = prepareDocument(plain, undefined, { limits });
    expect(prepared).toMatchObject({ input: 'docx', embeddedFonts: [], neutralized: [] });
    if (prepared.input !== 'docx') throw new Error('not a .docx');
    expect(prepared.docx).toBe(plain);
  });

  it('fills the hardened template: values in, fonts out', () => {
    const template = embeddingDocx({
      fonts: '<w:font w:name="Calibri"><w:embedRegular r:id="rId1"/></w:font>',
      fontRels: [fontRel('rId1', 'fonts/font1.odttf')],
      parts: ['word/fonts/font1.odttf'],
      body: para('Lejer: {name}'),
    });
    const prepared = prepareDocument(template, [{ tag: 'name', type: 'text', value: 'Ida Holm' }], {
      limits,
    });
    if (prepared.input !== 'docx') throw new Error('not a .docx');
    const docx = Buffer.from(prepared.docx);
    expect(prepared.embeddedFonts).toEqual([
      {
        family: 'Calibri',
        style: 'regular',
        part: 'word/fontTable.xml',
        fontPart: 'word/fonts/font1.odttf',
      },
    ]);
    expect(text(docx, 'word/document.xml')).toContain('Lejer: Ida Holm');
    expect(names(docx)).not.toContain('word/fonts/font1.odttf');
    expect(text(docx, 'word/fontTable.xml')).not.toContain('embedRegular');
  });

  it('follows the relationship id whatever its type or part name, as LibreOffice does', () => {
    // A crafted package: the font hides behind an "image" relationship and a .bin name.
    const docx = embeddingDocx({
      fonts:
        '<x:font xmlns:x="' +
        W +
        '" x:name="Calibri"><x:embedBoldItalic r:id="rIdPic" x:fontKey="{0}"></x:embedBoldItalic></x:font>',
      fontRels: [fontRel('rIdPic', '/word/media/pic.bin', `${REL}/image`)],
      parts: ['word/media/pic.bin'],
    });
    const hardened = hardenPackage(openDocx(docx), limits);
    expect(hardened.embeddedFonts).toEqual([
      {
        family: 'Calibri',
        style: 'bold-italic',
        part: 'word/fontTable.xml',
        fontPart: 'word/media/pic.bin',
      },
    ]);
    expect(names(hardened.docx!)).not.toContain('word/media/pic.bin');
    expect(text(hardened.docx!, 'word/fontTable.xml')).toContain(
      `<x:font xmlns:x="${W}" x:name="Calibri"></x:font>`,
    );
  });

  it('keeps a part something else still uses, cutting only the font relationship', () => {
    const docx = embeddingDocx({
      fonts: '<w:font w:name="Calibri"><w:embedRegular r:id="rId1"/></w:font>',
      fontRels: [fontRel('rId1', 'media/shared.bin')],
      parts: ['word/media/shared.bin'],
      rels: [`<Relationship Id="rIdImg" Type="${REL}/image" Target="media/shared.bin"/>`],
    });
    const hardened = hardenPackage(openDocx(docx), limits);
    expect(hardened.embeddedFonts).toHaveLength(1);
    expect(names(hardened.docx!)).toContain('word/media/shared.bin');
    expect(text(hardened.docx!, 'word/_rels/fontTable.xml.rels')).not.toContain('rId1');
    expect(text(hardened.docx!, 'word/_rels/document.xml.rels')).toContain('rIdImg');
  });

  it('rewrites a UTF-16 font table in UTF-16', () => {
    const docx = embeddingDocx({
      fonts: '<w:font w:name="Calibri"><w:embedItalic r:id="rId1"/></w:font>',
      fontRels: [fontRel('rId1', 'fonts/font1.odttf')],
      parts: ['word/fonts/font1.odttf'],
      utf16: true,
    });
    const hardened = hardenPackage(openDocx(docx), limits);
    expect(hardened.embeddedFonts.map((f) => [f.family, f.style])).toEqual([['Calibri', 'italic']]);
    const table = ZipArchive.open(hardened.docx!).read('word/fontTable.xml');
    expect([...table.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(decodeXml(table)).toContain('<w:font w:name="Calibri"></w:font>');
  });

  it('tells an embedded-font element from pictures and settings by its bytes', () => {
    expect(namesEmbeddedFont(Buffer.from('<a:blip r:embed="rId5"/>'))).toBe(false);
    expect(namesEmbeddedFont(Buffer.from('<w:embedTrueTypeFonts/><w:embedSystemFonts/>'))).toBe(
      false,
    );
    for (const kind of ['Regular', 'Bold', 'Italic', 'BoldItalic'])
      expect(namesEmbeddedFont(Buffer.from(`<w:embed${kind} r:id="rId1"/>`))).toBe(true);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<w:embedBold r:id="a"/>', 'utf16le'),
    ]);
    expect(namesEmbeddedFont(utf16)).toBe(true);
  });
});

/** A document that inserts `inner` whole (`w:altChunk`), as LibreOffice imports it. */
const withAltChunk = (inner: Buffer, rels: string[] = []) =>
  buildDocx({
    body: `${para('Outer')}<w:altChunk r:id="rIdAlt"/>`,
    rels: [`<Relationship Id="rIdAlt" Type="${REL}/aFChunk" Target="chunk.docx"/>`, ...rels],
    extra: [{ name: 'word/chunk.docx', data: inner, contentType: DOCX_CT }],
  });

describe('Word documents embedded in the document', () => {
  it('removes the fonts of a document inserted with altChunk, naming where they were', () => {
    const outer = withAltChunk(threeFonts());
    const hardened = hardenPackage(openDocx(outer), limits);
    expect(hardened.embeddedFonts.map((f) => [f.family, f.style, f.part, f.fontPart])).toEqual([
      [
        'Calibri',
        'regular',
        'word/chunk.docx!/word/fontTable.xml',
        'word/chunk.docx!/word/fonts/font1.odttf',
      ],
      [
        'Calibri',
        'bold',
        'word/chunk.docx!/word/fontTable.xml',
        'word/chunk.docx!/word/fonts/font2.odttf',
      ],
      [
        'Cambria',
        'regular',
        'word/chunk.docx!/word/fontTable.xml',
        'word/chunk.docx!/word/fonts/font3.odttf',
      ],
    ]);
    const chunk = ZipArchive.open(hardened.docx!).read('word/chunk.docx');
    expect(names(chunk).filter((n) => n.startsWith('word/fonts/'))).toEqual([]);
    expect(hardenPackage(openDocx(chunk), limits).embeddedFonts).toEqual([]);
    expect(names(hardened.docx!)).toEqual(names(outer));
  });

  it('cuts the external references of an embedded document too', () => {
    const inner = buildDocx({
      body: para('Inner'),
      rels: [
        `<Relationship Id="rIdLink" Type="${REL}/image" Target="http://127.0.0.1:9/x.png" TargetMode="External"/>`,
      ],
    });
    const hardened = hardenPackage(openDocx(withAltChunk(inner)), limits);
    expect(hardened.neutralized).toEqual([
      {
        part: 'word/chunk.docx!/word/_rels/document.xml.rels',
        id: 'rIdLink',
        type: `${REL}/image`,
        target: 'http://127.0.0.1:9/x.png',
      },
    ]);
    const chunk = ZipArchive.open(hardened.docx!).read('word/chunk.docx');
    expect(text(chunk, 'word/_rels/document.xml.rels')).toContain(`Target="${INERT_TARGET}"`);
  });

  it('goes as deep as documents are embedded, and refuses deeper than the limit', () => {
    let nested = threeFonts();
    for (let level = 1; level < MAX_EMBEDDING_DEPTH; level++) nested = withAltChunk(nested);
    const allowed = hardenPackage(openDocx(withAltChunk(nested)), limits);
    expect(allowed.embeddedFonts).toHaveLength(3);
    expect(allowed.embeddedFonts[0]!.part).toBe(
      `${'word/chunk.docx!/'.repeat(MAX_EMBEDDING_DEPTH)}word/fontTable.xml`,
    );
    const tooDeep = withAltChunk(withAltChunk(nested));
    const err = failure(() => hardenPackage(openDocx(tooDeep), limits, 'documents[2]'));
    expect(err.slug).toBe('unsupported-file-type');
    expect(err.details).toEqual([
      {
        field: 'documents[2]',
        message: `the embedded document word/chunk.docx is embedded more than ${MAX_EMBEDDING_DEPTH} documents deep; docpipe cannot check what it brings into the conversion (fonts, links): remove it from the document or save it again as a .docx`,
      },
    ]);
  });

  it('refuses an embedded Word package it cannot clean (macro-enabled), naming it', () => {
    const docm = buildDocx({ body: para('Makro'), mainContentType: MAIN_CONTENT_TYPES.docm });
    const err = failure(() => prepareDocument(withAltChunk(docm), undefined, { limits }));
    expect(err).toBeInstanceOf(DocpipeError);
    expect(err.slug).toBe('unsupported-file-type');
    expect(err.details).toEqual([
      {
        field: 'document',
        message:
          'the embedded document word/chunk.docx is refused (macro-enabled Word document (.docm)); docpipe cannot check what it brings into the conversion (fonts, links): remove it from the document or save it again as a .docx',
      },
    ]);
  });

  it('leaves an embedded workbook alone: LibreOffice draws it from its picture', () => {
    const workbook = buildDocx({
      body: para('x'),
      mainPart: 'xl/workbook.xml',
      mainContentType: `${CT}.spreadsheetml.sheet.main+xml`,
    });
    const outer = buildDocx({
      body: para('Budget'),
      rels: [`<Relationship Id="rIdXl" Type="${REL}/package" Target="embeddings/Book1.xlsx"/>`],
      extra: [{ name: 'word/embeddings/Book1.xlsx', data: workbook }],
    });
    expect(hardenPackage(openDocx(outer), limits)).toEqual({ neutralized: [], embeddedFonts: [] });
    const prepared = prepareDocument(outer, undefined, { limits });
    if (prepared.input !== 'docx') throw new Error('not a .docx');
    expect(prepared.docx).toBe(outer);
  });
});

/** A zip whose entries are given as stored bytes: for entries no zip writer would make. */
function rawZip(
  entries: { name: string; method: number; raw: Buffer; crc: number; size: number }[],
) {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.raw.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(e.method, 10);
    cd.writeUInt32LE(e.crc, 16);
    cd.writeUInt32LE(e.raw.length, 20);
    cd.writeUInt32LE(e.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    chunks.push(local, name, e.raw);
    central.push(cd, name);
    offset += 30 + name.length + e.raw.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(
    central.reduce((n, b) => n + b.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, end]);
}

/**
 * A deflate stream that says nothing for its first kilobyte (empty stored blocks), then holds
 * `data`: its beginning shows nothing of what it is.
 */
function slowStart(data: Buffer): Buffer {
  const empty = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
  const last = Buffer.alloc(5);
  last.writeUInt8(0x01, 0);
  last.writeUInt16LE(data.length, 1);
  last.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([...Array.from({ length: 220 }, () => empty), last, data]);
}

/** A document with one more part, `word/media/blob.bin`, deflated as {@link slowStart}. */
function withHiddenPart(data: Buffer, crc = crc32(data)): Buffer {
  const base = ZipArchive.open(buildDocx({ body: para('Outer') }));
  return rawZip([
    ...base.entries.map((e) => ({
      name: e.name,
      method: e.method,
      raw: base.raw(e),
      crc: e.crc32,
      size: e.uncompressedSize,
    })),
    { name: 'word/media/blob.bin', method: 8, raw: slowStart(data), crc, size: data.length },
  ]);
}

describe('embedded documents that hide what they are', () => {
  it('reads a part whose first bytes say nothing whole, and finds the document in it', () => {
    const inner = embeddingDocx({
      fonts: '<w:font w:name="Calibri"><w:embedRegular r:id="rId1"/></w:font>',
      fontRels: [fontRel('rId1', 'fonts/font1.odttf')],
      parts: ['word/fonts/font1.odttf'],
    });
    expect(inner.length).toBeLessThan(0xffff);
    const hardened = hardenPackage(openDocx(withHiddenPart(inner)), limits);
    expect(hardened.embeddedFonts.map((f) => f.part)).toEqual([
      'word/media/blob.bin!/word/fontTable.xml',
    ]);
  });

  it('refuses a document with a part it cannot read to tell', () => {
    const inner = buildDocx({ body: para('Inner') });
    const err = failure(() =>
      hardenPackage(openDocx(withHiddenPart(inner, 1234)), limits, 'documents[0]'),
    );
    expect(err.slug).toBe('unsupported-file-type');
    expect(err.details).toEqual([
      {
        field: 'documents[0]',
        message:
          'part word/media/blob.bin cannot be read (fails its CRC check), so docpipe cannot tell whether it is an embedded document: save the document again in Word',
      },
    ]);
  });

  it(`refuses more than ${MAX_EMBEDDED_DOCUMENTS} embedded documents`, () => {
    const inner = buildDocx({ body: para('Inner') });
    const outer = (count: number) =>
      buildDocx({
        body: para('Outer'),
        extra: Array.from({ length: count }, (_, i) => ({
          name: `word/embeddings/doc${i}.docx`,
          data: inner,
        })),
      });
    expect(hardenPackage(openDocx(outer(MAX_EMBEDDED_DOCUMENTS)), limits).embeddedFonts).toEqual(
      [],
    );
    const err = failure(() => hardenPackage(openDocx(outer(MAX_EMBEDDED_DOCUMENTS + 1)), limits));
    expect(err.details).toHaveLength(1);
    expect(err.details[0]!.message).toContain(
      `is one more than the ${MAX_EMBEDDED_DOCUMENTS} embedded documents allowed`,
    );
  });
});

/** A one-page PDF that draws a line, as a converter would answer; its fonts do not matter here. */
async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawRectangle({ x: 10, y: 10, width: 100, height: 2 });
  return Buffer.from(await doc.save());
}

describe('the embedded-fonts-ignored notice', () => {
  const notice = {
    code: 'embedded-fonts-ignored',
    message:
      'the document embeds the fonts "Calibri", "Cambria"; embedded fonts are never used (an office process converts many customers\' documents, and a font loaded for one would be used for the next), so the text was drawn with installed fonts: install the font where docpipe runs if you hold a licence for it',
    fonts: ['Calibri', 'Cambria'],
  };

  it('comes first, and strict fidelity does not refuse a render for it', () => {
    const report = fidelityReport([], [], [2], ['Calibri', 'Cambria']);
    expect(report.notices[0]).toEqual(notice);
    expect(report.notices.map((n) => n.code)).toEqual(['embedded-fonts-ignored', 'empty-page']);
    expect(fidelityRefusal([notice as never], 'documents[0]')).toBeUndefined();
  });

  it('is answered by a render, its cache hit, and a hit in another process', async () => {
    const dir = testDir('harden-fonts-render');
    const converter = new ScriptedConverter(() => onePagePdf());
    const preparer = new InlinePreparer();
    const renderer = new Renderer({ preparer, converter, storage: new LocalStorage(dir) });
    const input = { bytes: threeFonts(), name: 'fonts' };
    const first = await renderer.render(input, []);
    expect(first.cached).toBe(false);
    expect(first.notices).toEqual([notice]);
    // What LibreOffice was given carries no font.
    expect(converter.requests).toHaveLength(1);
    const sent = Buffer.from(converter.requests[0]!.docx);
    expect(names(sent).filter((n) => n.endsWith('.odttf'))).toEqual([]);
    const again = await renderer.render(input, []);
    expect(again).toMatchObject({ cached: true, notices: [notice] });
    // A renderer that never rendered it reads the notice again from the input.
    const other = new Renderer({ preparer, converter, storage: new LocalStorage(dir) });
    const elsewhere = await other.render(input, []);
    expect(elsewhere).toMatchObject({ cached: true, notices: [notice] });
    expect(converter.requests).toHaveLength(1);
  });
});
