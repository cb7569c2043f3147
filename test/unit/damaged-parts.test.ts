import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocpipeError, isDocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { fillPackage, fillTemplate } from '../../src/document/fill/index.js';
import { hardenPackage, planEmbeddedFontRemoval } from '../../src/document/harden/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { lintTemplate } from '../../src/authoring/lint/index.js';
import { markTemplate } from '../../src/authoring/preview/index.js';
import { documentFonts } from '../../src/formats/fonts/index.js';
import { readXmlPart, unescapeXml } from '../../src/formats/opc/index.js';
import {
  DEFAULT_SNIFF_LIMITS,
  openDocx,
  sniffBytes,
  type DocxPackage,
} from '../../src/formats/sniff/index.js';
import { DamagedPartError, ZipArchive } from '../../src/formats/zip/index.js';
import { InlinePreparer, prepareDocument } from '../../src/render/prepare/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import {
  EMBEDDED_WORKBOOK,
  OUT_OF_RANGE_REFERENCE,
  docxWithDamagedWorkbook,
  docxWithOutOfRangeReference,
} from '../helpers/damaged-docx.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';
import { ScriptedConverter } from '../helpers/scripted-converter.js';
import { testDir } from '../helpers/test-dir.js';
import { patchEntry } from '../helpers/zip-patch.js';

const limits = DEFAULT_SNIFF_LIMITS;
const workbookMessage = `damaged: part ${EMBEDDED_WORKBOOK} fails its CRC check`;
const referenceMessage = `damaged: XML part word/document.xml holds the character reference ${OUT_OF_RANGE_REFERENCE}, which names no character (past U+10FFFF): the XML is not well-formed`;

/** A typed failure's wire form and whether it is retried: what the queue decides on. */
const answer = (err: DocpipeError) => ({ ...err.toFailure(), retryable: err.retryable });

describe('a .docx whose embedded workbook fails its CRC check', () => {
  const docx = docxWithDamagedWorkbook();

  it('passes sniffing, which inflates only the first bytes of a part that is not XML', () => {
    expect(sniffBytes(docx)).toMatchObject({ kind: 'docx' });
  });

  it('is unsupported-file-type (damaged, naming the part), permanent, when prepared for a render', () => {
    const err = failure(() => prepareDocument(docx, [], { limits, field: 'documents[2]' }));
    expect(answer(err)).toEqual({
      error: 'unsupported-file-type',
      details: [{ field: 'documents[2]', message: workbookMessage }],
      retryable: false,
    });
  });

  it('fails the render typed and permanent, before anything is converted', async () => {
    const converter = new ScriptedConverter(() => Promise.reject(new Error('not reached')));
    const renderer = new Renderer({
      preparer: new InlinePreparer(),
      converter,
      storage: new LocalStorage(testDir('damaged-render')),
    });
    const err = await renderer.render({ bytes: docx, name: 'bilag' }, []).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDocpipeError(err) && answer(err)).toEqual({
      error: 'unsupported-file-type',
      details: [{ field: 'document', message: workbookMessage }],
      retryable: false,
    });
    expect(converter.requests).toEqual([]);
  });

  it('is refused by harden and by lint, naming the part', () => {
    expect(failure(() => hardenPackage(openDocx(docx), limits, 'documents[0]')).details).toEqual([
      { field: 'documents[0]', message: workbookMessage },
    ]);
    expect(lintTemplate(docx, { fonts: false })).toEqual([
      expect.objectContaining({
        id: 'not_a_docx',
        severity: 'error',
        explanation: `The file is refused (damaged): part ${EMBEDDED_WORKBOOK} fails its CRC check.`,
      }),
    ]);
  });
});

describe('a .docx with an out-of-range character reference in an attribute the font scan reads', () => {
  const docx = docxWithOutOfRangeReference();

  it('is refused by sniffing as damaged, naming the part', () => {
    expect(sniffBytes(docx)).toEqual({
      kind: 'unsupported',
      reason: 'damaged',
      message: referenceMessage.slice('damaged: '.length),
    });
  });

  it('is unsupported-file-type, permanent, for render, fill, fields text, lint and preview', () => {
    const expected = {
      error: 'unsupported-file-type',
      details: [{ field: 'documents[1]', message: referenceMessage }],
      retryable: false,
    };
    expect(
      answer(failure(() => prepareDocument(docx, [], { limits, field: 'documents[1]' }))),
    ).toEqual(expected);
    expect(answer(failure(() => fillTemplate(docx, [], { field: 'documents[1]' })))).toEqual(
      expected,
    );
    expect(answer(failure(() => markTemplate(docx, { field: 'documents[1]' })))).toEqual(expected);
    expect(failure(() => documentText(docx)).slug).toBe('unsupported-file-type');
    expect(lintTemplate(docx, { fonts: false })).toEqual([
      expect.objectContaining({
        id: 'not_a_docx',
        explanation: `The file is refused (damaged): ${referenceMessage.slice('damaged: '.length)}.`,
      }),
    ]);
  });

  it('is damaged where the XML parser fill uses meets a part it cannot parse', () => {
    // Sniffing reads [Content_Types].xml by its elements; docxtemplater parses it whole.
    const docx = buildDocx({
      body: para('Hej {name}'),
      mutate: (entries) =>
        entries.map((e) =>
          e.name === '[Content_Types].xml'
            ? { name: e.name, data: Buffer.from(e.data.toString('utf8').replace('</Types>', '')) }
            : e,
        ),
    });
    expect(answer(failure(() => fillTemplate(docx, [], { field: 'documents[0]' })))).toEqual({
      error: 'unsupported-file-type',
      details: [
        {
          field: '',
          message: 'damaged: a part is not well-formed XML (unclosed xml tag(s): Types)',
        },
      ],
      retryable: false,
    });
    expect(
      answer(
        failure(() =>
          prepareDocument(docx, [{ tag: 'name', value: 'Ane', type: 'text' }], {
            limits,
            field: 'documents[0]',
          }),
        ),
      ),
    ).toEqual({
      error: 'unsupported-file-type',
      details: [
        {
          field: 'documents[0]',
          message: 'damaged: a part is not well-formed XML (unclosed xml tag(s): Types)',
        },
      ],
      retryable: false,
    });
  });

  it('fails typed where the text is unescaped, not with a RangeError', () => {
    const err = failure(() => unescapeXml(`Arial${OUT_OF_RANGE_REFERENCE}`));
    expect(err).toBeInstanceOf(DamagedPartError);
    expect(err.slug).toBe('unsupported-file-type');
    expect(unescapeXml('&#x10FFFF;&#65;&#x0000000042;&#00000000067;&amp;')).toBe('\u{10FFFF}ABC&');
    expect(failure(() => unescapeXml('&#1114112;')).slug).toBe('unsupported-file-type');
  });
});

/**
 * Every reader of package parts, given a package that sniffing never saw (as a later reader of a
 * stored package might be): a part that does not read back fails each of them the same typed
 * way, naming the part.
 */
describe('every reader of package parts fails typed on a damaged part', () => {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const fontTable = (name: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><w:fonts xmlns:w="${W}" xmlns:r="${R}"><w:font w:name="${name}"><w:embedRegular r:id="rId1"/></w:font></w:fonts>`;
  const source = (name = 'Calibri') =>
    buildDocx({
      body: para('Lejer: {name}'),
      rels: [`<Relationship Id="rIdFonts" Type="${REL}/fontTable" Target="fontTable.xml"/>`],
      extra: [
        {
          name: 'word/fontTable.xml',
          data: fontTable(name),
          contentType:
            'application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml',
        },
        {
          name: 'word/_rels/fontTable.xml.rels',
          data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/font" Target="fonts/font1.odttf"/></Relationships>`,
        },
        { name: 'word/fonts/font1.odttf', data: Buffer.alloc(512, 7) },
      ],
    });
  /** The sniffed package of a sound document, with the archive of a damaged copy. */
  const unsniffed = (damaged: Buffer): DocxPackage => ({
    ...openDocx(source()),
    archive: ZipArchive.open(damaged),
  });
  const crcBroken = (part: string) => unsniffed(patchEntry(source(), part, { crc32: 1 }));

  const readers: [string, string, (pkg: DocxPackage) => unknown][] = [
    ['the font scan', 'word/document.xml', (pkg) => documentFonts(pkg)],
    ['harden', 'word/fontTable.xml', (pkg) => hardenPackage(pkg, limits)],
    [
      'the embedded-font removal',
      'word/fontTable.xml',
      (pkg) => planEmbeddedFontRemoval(pkg, (n) => pkg.archive.read(n), ['word/fontTable.xml']),
    ],
    ['fill', 'word/document.xml', (pkg) => fillPackage(pkg, [{ tag: 'name', value: 'Ane' }])],
    [
      'a plain part read',
      'word/document.xml',
      (pkg) => readXmlPart(pkg.archive, 'word/document.xml'),
    ],
  ];

  it.each(readers)('%s: a part that fails its CRC check', (_reader, part, read) => {
    const err = failure(() => read(crcBroken(part)));
    expect(err).toBeInstanceOf(DamagedPartError);
    expect(answer(err)).toEqual({
      error: 'unsupported-file-type',
      // Harden knows the document it hardens; the others leave that to their caller.
      details: [
        {
          field: read === readers[1]![2] ? 'document' : '',
          message: `damaged: part ${part} fails its CRC check`,
        },
      ],
      retryable: false,
    });
  });

  it('the embedded-font removal: a font name with a reference to no character', () => {
    const pkg = unsniffed(source(`Calibri${OUT_OF_RANGE_REFERENCE}`));
    const err = failure(() =>
      planEmbeddedFontRemoval(pkg, (n) => pkg.archive.read(n), ['word/fontTable.xml']),
    );
    expect(err.details).toEqual([
      {
        field: '',
        message: `damaged: part word/fontTable.xml holds the character reference ${OUT_OF_RANGE_REFERENCE}, which names no character (past U+10FFFF): the XML is not well-formed`,
      },
    ]);
  });

  it('names a part of an embedded document by its path from the document', () => {
    const inner = patchEntry(source(), 'word/fontTable.xml', { crc32: 1 });
    // A part sniffing checks as XML fails the inner sniff: patch a part harden reads only.
    const docx = buildDocx({
      body: para('Ydre'),
      extra: [{ name: 'word/embeddings/inner.docx', data: inner }],
    });
    expect(failure(() => hardenPackage(openDocx(docx), limits, 'documents[0]')).details).toEqual([
      {
        field: 'documents[0]',
        message: expect.stringContaining(
          'the embedded document word/embeddings/inner.docx is refused (part word/fontTable.xml fails its CRC check)',
        ),
      },
    ]);
  });
});

describe('the corpus templates still read', () => {
  it('reads every library template as before: no reference refused', () => {
    const lease = readFileSync(join(projectRoot(), 'templates/lease/template.docx'));
    expect(sniffBytes(lease)).toMatchObject({ kind: 'docx' });
  });
});
