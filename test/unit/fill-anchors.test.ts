import { describe, expect, it } from 'vitest';
import PizZip from 'pizzip';
import { fillTemplate, mayHoldAnchors } from '../../src/document/fill/index.js';
import { documentText, templateFields } from '../../src/document/inspect/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const xmlOf = (docx: Buffer, part = 'word/document.xml') => new PizZip(docx).file(part)!.asText();
const text = (docx: Buffer, part = 'body') =>
  documentText(docx)
    .filter((p) => p.part === part)
    .map((p) => p.text)
    .join('');
/** The runs holding a marker, with their text. */
const markerRuns = (xml: string) =>
  [
    ...xml.matchAll(
      /<w:r>(<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)<w:t>(DP[SIND]\d{5}x*)<\/w:t><\/w:r>/g,
    ),
  ].map((m) => ({ rPr: m[1]!, text: m[2]! }));

describe('fill: anchors', () => {
  it('replaces each anchor with its marker run, in its paragraph, without a TagInput', () => {
    const docx = buildDocx({
      body:
        para('Landlord: {sign:1} on {date:1}') +
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>{name:2}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
      header: para('{initials:2}'),
    });
    const out = fillTemplate(docx, []);
    expect(out.anchors).toEqual([
      { kind: 'sign', recipient: 1, serial: 1, marker: 'DPS01001xxxx' },
      { kind: 'date', recipient: 1, serial: 2, marker: 'DPD01002xxxxxx' },
      { kind: 'name', recipient: 2, serial: 3, marker: 'DPN02003xxxxxxxxxxxxxxxx' },
      { kind: 'initials', recipient: 2, serial: 4, marker: 'DPI02004' },
    ]);
    expect(out.fields).toEqual([]);
    expect(text(out.docx)).toBe(
      'Landlord: DPS01001xxxx on DPD01002xxxxxx\nDPN02003xxxxxxxxxxxxxxxx\n',
    );
    expect(text(out.docx, 'header')).toBe('DPI02004\n');
    const runs = markerRuns(xmlOf(out.docx));
    expect(runs.map((r) => r.text)).toEqual([
      'DPS01001xxxx',
      'DPD01002xxxxxx',
      'DPN02003xxxxxxxxxxxxxxxx',
    ]);
    expect(runs[0]!.rPr).toContain('<w:sz w:val="48"/>');
    expect(runs[2]!.rPr).toContain('<w:sz w:val="20"/>');
    expect(markerRuns(xmlOf(out.docx, 'word/header1.xml'))).toHaveLength(1);
  });

  it('handles an anchor Word split across runs, giving the text after it the first run again', () => {
    const docx = buildDocx({
      body: para(run('Sign: {si', true), run('gn:'), run('1} now', true), ' end'),
    });
    const out = fillTemplate(docx, []);
    expect(out.anchors.map((a) => a.marker)).toEqual(['DPS01001xxxx']);
    expect(text(out.docx)).toBe('Sign: DPS01001xxxx now end\n');
    const xml = xmlOf(out.docx);
    // "Sign: " keeps its bold run and its trailing space; the marker is a run of its own.
    expect(xml).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Sign: </w:t></w:r>');
    expect(markerRuns(xml)).toHaveLength(1);
  });

  it('works with other delimiters, such as {{ }}', () => {
    const docx = buildDocx({ body: para('{{sign:3}} and {sign:1} and {{who}}') });
    const out = fillTemplate(docx, [{ tag: 'who', value: 'Bo', type: 'text' }], {
      delimiters: { start: '{{', end: '}}' },
    });
    expect(out.anchors.map((a) => a.marker)).toEqual(['DPS03001xxxx']);
    expect(text(out.docx)).toBe('DPS03001xxxx and {sign:1} and Bo\n');
  });

  it('keeps a value that looks like an anchor or a marker as text', () => {
    const docx = buildDocx({ body: para('{who} {sign:1}') });
    const out = fillTemplate(docx, [{ tag: 'who', value: '{sign:2} DPS02009xxxx', type: 'text' }]);
    expect(out.anchors).toHaveLength(1);
    expect(text(out.docx)).toBe('{sign:2} DPS02009xxxx DPS01001xxxx\n');
    expect(markerRuns(xmlOf(out.docx))).toHaveLength(1);
  });

  it('is never an unfilled field, in strict mode neither, and strict refuses a TagInput for it', () => {
    const docx = buildDocx({ body: para('{sign:1} {who}') });
    expect(templateFields(docx).map((f) => f.tag)).toEqual(['who']);
    const ok = fillTemplate(docx, [{ tag: 'who', value: 'Bo', type: 'text' }], { strict: true });
    expect(ok.anchors).toHaveLength(1);
    const err = failure(() =>
      fillTemplate(
        docx,
        [
          { tag: 'who', value: 'Bo', type: 'text' },
          { tag: 'sign:1', value: 'x', type: 'text' },
        ],
        { strict: true },
      ),
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual(['tags[1].tag']);
  });

  it('refuses malformed anchors, naming each with where it is and what to write', () => {
    const docx = buildDocx({ body: para('{sign:0}') + para('{sign:x} {sign} {date:2}') });
    const err = failure(() => fillTemplate(docx, [], { field: 'documents[1]' }));
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.map((d) => d.field)).toEqual([
      'documents[1].anchors.sign:0',
      'documents[1].anchors.sign:x',
      'documents[1].anchors.sign',
    ]);
    expect(err.details[0]!.message).toBe(
      '"{sign:0}" in body paragraph 1 (word/document.xml) names recipient 0: the recipient is a number from 1 to 99 (its position in recipients[]); write {sign:1}',
    );
    expect(err.details[2]!.message).toContain('names no recipient');
  });

  it('refuses an anchor inside a section or a loop', () => {
    const docx = buildDocx({ body: para('{#show}{sign:1}{/show}') + para('{date:1}') });
    const err = failure(() => fillTemplate(docx, [{ tag: 'show', value: true, type: 'boolean' }]));
    expect(err.slug).toBe('document-production-failed');
    expect(err.details).toEqual([
      {
        field: 'anchors.sign:1',
        message: expect.stringContaining('is inside the section "show"') as string,
      },
    ]);
  });

  it('refuses an anchor in a document property, where no one can sign', () => {
    const docx = buildDocx({ body: para('x'), title: 'Doc {sign:1}' });
    const err = failure(() => fillTemplate(docx, []));
    expect(err.details[0]!.field).toBe('anchors.sign:1');
    expect(err.details[0]!.message).toContain("is not in the document's text");
  });

  it('says when a package may hold anchors, runs joined, by its delimiters', () => {
    const split = openDocx(buildDocx({ body: para(run('{si'), run('gn:1}')) }));
    expect(mayHoldAnchors(split, { start: '{', end: '}' })).toBe(true);
    expect(mayHoldAnchors(split, { start: '[[', end: ']]' })).toBe(false);
    const none = openDocx(buildDocx({ body: para('Dear {name}, dated {date}') }));
    expect(mayHoldAnchors(none, { start: '{', end: '}' })).toBe(false);
  });
});
