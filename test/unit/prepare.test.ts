import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../src/document/fill/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { openDocx, DEFAULT_SNIFF_LIMITS } from '../../src/formats/sniff/index.js';
import { prepareDocument } from '../../src/render/prepare/prepare-document.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const linked = buildDocx({
  body: para('Hello {name}'),
  rels: [
    `<Relationship Id="rIdImg" Type="${REL}/image" Target="http://127.0.0.1:9/x.png" TargetMode="External"/>`,
    `<Relationship Id="rIdLink" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/>`,
  ],
});
const plain = buildDocx({ body: para('Hello {name}') });
const options = { limits: DEFAULT_SNIFF_LIMITS };
const tags = [{ tag: 'name', value: 'Ida', type: 'text' }];
const rels = (docx: Uint8Array) =>
  openDocx(docx).archive.read('word/_rels/document.xml.rels').toString();

describe('prepare: sniff, fill and harden in one go', () => {
  it('fills and cuts external references, hyperlinks kept', () => {
    const prepared = prepareDocument(linked, tags, options);
    if (prepared.input !== 'docx') throw new Error('expected a .docx');
    expect(documentText(prepared.docx)[0]?.text).toBe('Hello Ida\n');
    expect(prepared.neutralized.map((n) => n.id)).toEqual(['rIdImg']);
    expect(rels(prepared.docx)).toContain('Target="about:blank"');
    expect(rels(prepared.docx)).toContain('Target="https://example.com/"');
  });

  it('stores the filled parts uncompressed (only LibreOffice reads them), fill() deflates them', () => {
    const big = buildDocx({ body: para(`Hello {name}. ${'Terms and conditions. '.repeat(200)}`) });
    const prepared = prepareDocument(big, tags, options);
    if (prepared.input !== 'docx') throw new Error('expected a .docx');
    const methodOf = (docx: Uint8Array) =>
      openDocx(docx).archive.entries.find((e) => e.name === 'word/document.xml')?.method;
    expect(methodOf(prepared.docx)).toBe(0);
    expect(methodOf(fillTemplate(big, tags).docx)).toBe(8);
    expect(documentText(prepared.docx)[0]?.text).toContain('Hello Ida.');
  });

  it('cuts the links of the template and fills it hardened: the filled document is not parsed again', () => {
    // 3 MB of letters: stored, the filled document passes a 2 MiB input limit, which no longer
    // applies to it (only the template was parsed, and hardened, before filling).
    const limits = { ...DEFAULT_SNIFF_LIMITS, maxInputBytes: 2 * 1024 * 1024 };
    let seed = 11;
    const value = Array.from({ length: 3_000_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String.fromCharCode(97 + (seed % 26));
    }).join('');
    const big = [{ tag: 'name', value, type: 'text' }];
    const values = { maxValueChars: 4_000_000, maxTagsChars: 4_000_000 };
    const prepared = prepareDocument(linked, big, { limits, values });
    if (prepared.input !== 'docx') throw new Error('expected a .docx');
    expect(prepared.neutralized.map((n) => n.id)).toEqual(['rIdImg']);
    const main = openDocx(prepared.docx).archive.entry('word/document.xml');
    expect(main?.method).toBe(0);
    expect(prepared.docx.length).toBeGreaterThan(limits.maxInputBytes);
    expect(rels(prepared.docx)).not.toContain('127.0.0.1');
    expect(documentText(prepared.docx)[0]?.text).toBe(`Hello ${value}\n`);
  });

  it('cuts external references of a document given without values', () => {
    const prepared = prepareDocument(linked, [], options);
    if (prepared.input !== 'docx') throw new Error('expected a .docx');
    expect(prepared.neutralized.map((n) => n.id)).toEqual(['rIdImg']);
    expect(rels(prepared.docx)).not.toContain('127.0.0.1');
  });

  it('leaves a document without external references as it is', () => {
    const prepared = prepareDocument(plain, [], options);
    if (prepared.input !== 'docx') throw new Error('expected a .docx');
    expect(prepared.neutralized).toEqual([]);
    expect(Buffer.from(prepared.docx).equals(plain)).toBe(true);
  });

  it('fills a strict document (a library document) without values, so every missing field is named', () => {
    const two = buildDocx({ body: para('Lejer: {tenant_name}, {tenant_address}. Fast tekst.') });
    for (const given of [undefined, null, []]) {
      expect(() =>
        prepareDocument(two, given, { ...options, strict: true, field: 'documents[0]' }),
      ).toThrowError(
        expect.objectContaining({
          slug: 'validation-failed',
          details: [
            expect.objectContaining({ field: 'documents[0].tags.tenant_name' }),
            expect.objectContaining({ field: 'documents[0].tags.tenant_address' }),
          ],
        }),
      );
    }
    // Not strict, a .docx without values is a document of its own: its braces are its text.
    const loose = prepareDocument(two, [], options);
    if (loose.input !== 'docx') throw new Error('expected a .docx');
    expect(documentText(loose.docx)[0]?.text).toContain('{tenant_name}');
    // Strict with a template that needs nothing: filled, and nothing is missing.
    const fixed = prepareDocument(buildDocx({ body: para('Fast tekst.') }), [], {
      ...options,
      strict: true,
    });
    if (fixed.input !== 'docx') throw new Error('expected a .docx');
    expect(fixed.timings.fill).toBeGreaterThan(0);
    expect(documentText(fixed.docx)[0]?.text).toBe('Fast tekst.\n');
  });

  it('refuses what is not a PDF or .docx, naming the document', () => {
    expect(() =>
      prepareDocument(Buffer.from('text'), tags, { ...options, field: 'documents[2]' }),
    ).toThrowError(
      expect.objectContaining({
        slug: 'unsupported-file-type',
        details: [expect.objectContaining({ field: 'documents[2]' })],
      }),
    );
  });
});
