import { describe, expect, it } from 'vitest';
import { documentText } from '../../src/document/inspect/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { markTagsInPart, markTemplate, MARK_FILL } from '../../src/authoring/preview/index.js';
import {
  parseXmlTree,
  serializeXmlTree,
  XmlTreeError,
} from '../../src/authoring/preview/xml-tree.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const CURLY = { start: '{', end: '}' };

/** A Word part holding these paragraphs. */
const part = (...paragraphs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${paragraphs.join('')}</w:body></w:document>`;

/** Each run of a part as [its text, its shading fill or ''], in document order. */
function runs(xml: string): [string, string][] {
  return [...xml.matchAll(/<w:r>(.*?)<\/w:r>/g)].map((m) => {
    const body = m[1]!;
    const text = [...body.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('');
    return [text, /<w:shd [^>]*w:fill="([0-9A-F]+)"/.exec(body)?.[1] ?? ''];
  });
}

const read = (docx: Buffer, name: string) => openDocx(docx).archive.read(name).toString('utf8');

describe('markTagsInPart', () => {
  it('shades a tag in the middle of a run, splitting it in three with the same properties', () => {
    const xml = part(para(run('Dear {name}, welcome', true)));
    const marked = markTagsInPart(xml, CURLY);
    expect(marked).toMatchObject({ tags: 1, unmarked: 0 });
    expect(runs(marked.xml)).toEqual([
      ['Dear ', ''],
      ['{name}', MARK_FILL.value],
      [', welcome', ''],
    ]);
    // Every piece keeps the run's bold; the shading follows it inside w:rPr.
    expect(marked.xml.match(/<w:b\/>/g)).toHaveLength(3);
    expect(marked.xml).toContain(
      `<w:rPr><w:b/><w:shd w:val="clear" w:color="auto" w:fill="${MARK_FILL.value}"/></w:rPr>`,
    );
  });

  it('shades a tag that Word split over three runs, in each run, and nothing around it', () => {
    const xml = part(para(run('Lessor: {land'), run('lord_'), run('name} (the lessor)')));
    const marked = markTagsInPart(xml, CURLY);
    expect(marked.tags).toBe(1);
    expect(runs(marked.xml)).toEqual([
      ['Lessor: ', ''],
      ['{land', MARK_FILL.value],
      ['lord_', MARK_FILL.value],
      ['name}', MARK_FILL.value],
      [' (the lessor)', ''],
    ]);
  });

  it('gives section markers their own colour, both branches and the loop, and inverted ones another', () => {
    const xml = part(
      para(run('{#pets}Pets allowed.{/pets}{^pets}No pets.{/pets}')),
      para(run('{#lines}{description}: {amount}{/lines}')),
    );
    const marked = markTagsInPart(xml, CURLY);
    expect(marked.tags).toBe(8);
    expect(runs(marked.xml)).toEqual([
      ['{#pets}', MARK_FILL.section],
      ['Pets allowed.', ''],
      ['{/pets}', MARK_FILL.section],
      ['{^pets}', MARK_FILL.inverted],
      ['No pets.', ''],
      ['{/pets}', MARK_FILL.inverted],
      ['{#lines}', MARK_FILL.section],
      ['{description}', MARK_FILL.value],
      [': ', ''],
      ['{amount}', MARK_FILL.value],
      ['{/lines}', MARK_FILL.section],
    ]);
    expect(new Set(Object.values(MARK_FILL)).size).toBe(3);
  });

  it('reads tags from unescaped text and writes the pieces escaped again', () => {
    const xml = part(para(run('R&D <{name}> & "co"')));
    expect(xml).toContain('R&amp;D &lt;{name}&gt;');
    const marked = markTagsInPart(xml, CURLY);
    expect(runs(marked.xml)).toEqual([
      ['R&amp;D &lt;', ''],
      ['{name}', MARK_FILL.value],
      ['&gt; &amp; &quot;co&quot;', ''],
    ]);
    // Delimiters that need escaping in XML are found in the text they stand for.
    const angled = markTagsInPart(part(para(run('A <<name>> B'))), { start: '<<', end: '>>' });
    expect(runs(angled.xml)).toEqual([
      ['A ', ''],
      ['&lt;&lt;name&gt;&gt;', MARK_FILL.value],
      [' B', ''],
    ]);
  });

  it('puts the shading where the schema wants it, replacing a highlight and an own shading', () => {
    const props =
      '<w:rPr><w:rFonts w:ascii="Arial"/><w:highlight w:val="green"/><w:shd w:val="clear" w:fill="00FF00"/><w:vertAlign w:val="superscript"/><w:lang w:val="da-DK"/></w:rPr>';
    const xml = part(`<w:p><w:r>${props}<w:t>{x}</w:t></w:r></w:p>`);
    const marked = markTagsInPart(xml, CURLY).xml;
    expect(marked).toContain(
      `<w:rPr><w:rFonts w:ascii="Arial"/><w:shd w:val="clear" w:color="auto" w:fill="${MARK_FILL.value}"/><w:vertAlign w:val="superscript"/><w:lang w:val="da-DK"/></w:rPr>`,
    );
    expect(marked).not.toContain('w:highlight');
  });

  it('keeps a run’s other content (a tab, a break) in place between the pieces', () => {
    const xml = part(
      '<w:p><w:r w:rsidR="00AB"><w:t xml:space="preserve">a </w:t><w:tab/><w:t>{x}</w:t><w:br/><w:t>b</w:t></w:r></w:p>',
    );
    const marked = markTagsInPart(xml, CURLY).xml;
    expect(marked).toContain(
      '<w:r w:rsidR="00AB"><w:t xml:space="preserve">a </w:t><w:tab/></w:r>' +
        `<w:r w:rsidR="00AB"><w:rPr><w:shd w:val="clear" w:color="auto" w:fill="${MARK_FILL.value}"/></w:rPr><w:t xml:space="preserve">{x}</w:t></w:r>` +
        '<w:r w:rsidR="00AB"><w:br/><w:t>b</w:t></w:r>',
    );
  });

  it('shades tags in a text box inside a run, and the run around it keeps its drawing', () => {
    const box = `<w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>${para(run('Box {boxed}'))}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>`;
    const xml = part(`<w:p><w:r><w:t xml:space="preserve">Out {outer} </w:t>${box}</w:r></w:p>`);
    const marked = markTagsInPart(xml, CURLY);
    expect(marked.tags).toBe(2);
    expect(marked.xml.match(new RegExp(`w:fill="${MARK_FILL.value}"`, 'g'))).toHaveLength(2);
    expect(marked.xml).toContain(
      `<w:txbxContent><w:p><w:r><w:t xml:space="preserve">Box </w:t></w:r><w:r><w:rPr><w:shd w:val="clear" w:color="auto" w:fill="${MARK_FILL.value}"/></w:rPr><w:t xml:space="preserve">{boxed}</w:t></w:r></w:p></w:txbxContent>`,
    );
    // The drawing stays with the text before it, after the shaded tag.
    expect(marked.xml).toMatch(
      /\{outer\}<\/w:t><\/w:r><w:r><w:t xml:space="preserve"> <\/w:t><w:drawing>/,
    );
  });

  it('counts tags in equations as not shaded, and leaves a part without tags as the same string', () => {
    const xml = part(
      `<w:p><m:oMath xmlns:m="m"><m:r><m:t>{formula}</m:t></m:r></m:oMath>${run(' and {x}')}</w:p>`,
    );
    const marked = markTagsInPart(xml, CURLY);
    expect(marked).toMatchObject({ tags: 2, unmarked: 1 });
    expect(marked.xml).toContain('<m:t>{formula}</m:t>');
    const plain = part(para(run('No tags here, only {braces without a close')));
    expect(markTagsInPart(plain, CURLY).xml).toBe(plain);
    expect(markTagsInPart(plain, CURLY).tags).toBe(0);
  });

  it('uses the delimiters it is given', () => {
    const xml = part(para(run('{literal} and {{name}}')));
    const marked = markTagsInPart(xml, { start: '{{', end: '}}' });
    expect(runs(marked.xml)).toEqual([
      ['{literal} and ', ''],
      ['{{name}}', MARK_FILL.value],
    ]);
  });
});

describe('xml tree', () => {
  it('serialises back byte for byte, with comments, instructions, CDATA and > in attributes', () => {
    const xml =
      '<?xml version="1.0"?>\n<a x="1>0" y=\'q"\'><!-- c <b> --><b/>t&amp;<![CDATA[<x>]]><?pi x?></a>\n';
    expect(serializeXmlTree(parseXmlTree(xml))).toBe(xml);
  });

  it.each([
    ['a wrong end tag', '<a><b></a>', '</a> at offset 6 closes nothing open'],
    ['an element never closed', '<a>', '<a> is never closed'],
    ['a comment never closed', '<a><!-- x</a>', 'never closed'],
    ['300 levels', `${'<a>'.repeat(300)}${'</a>'.repeat(300)}`, 'deeper than 256'],
  ])('refuses %s', (_, xml, message) => {
    expect(() => parseXmlTree(xml)).toThrow(XmlTreeError);
    expect(() => parseXmlTree(xml)).toThrow(message);
  });
});

describe('markTemplate', () => {
  it('shades tags in body, header, footer, footnotes and endnotes, and keeps every other part', () => {
    const docx = buildDocx({
      body: para('Body {name}'),
      header: para(run('Header {con'), run('tract_no}')),
      footer: para('Footer {#flag}yes{/flag}'),
      footnotes: '<w:footnote w:id="1"><w:p><w:r><w:t>Note {city}</w:t></w:r></w:p></w:footnote>',
      endnotes:
        '<w:endnote w:id="1"><w:p><w:r><w:t>End {^flag}no{/flag}</w:t></w:r></w:p></w:endnote>',
      title: 'Title {name}',
    });
    const marked = markTemplate(docx);
    // The title's tag is in document properties, which no page shows.
    expect(marked.tags).toBe(7);
    expect(marked.unmarked).toEqual([]);
    expect(runs(read(marked.docx, 'word/header1.xml'))).toEqual([
      ['Header ', ''],
      ['{con', MARK_FILL.value],
      ['tract_no}', MARK_FILL.value],
    ]);
    expect(runs(read(marked.docx, 'word/footer1.xml'))).toEqual([
      ['Footer ', ''],
      ['{#flag}', MARK_FILL.section],
      ['yes', ''],
      ['{/flag}', MARK_FILL.section],
    ]);
    expect(read(marked.docx, 'word/footnotes.xml')).toContain(`w:fill="${MARK_FILL.value}"`);
    expect(read(marked.docx, 'word/endnotes.xml')).toContain(`w:fill="${MARK_FILL.inverted}"`);
    // The text reads as the template does: every tag still there, nothing filled.
    const text = documentText(marked.docx)
      .map((p) => `${p.part}: ${p.text}`)
      .join('');
    expect(text).toBe(
      documentText(docx)
        .map((p) => `${p.part}: ${p.text}`)
        .join(''),
    );
    const before = openDocx(docx).archive.entries.map((e) => e.name);
    expect(openDocx(marked.docx).archive.entries.map((e) => e.name)).toEqual(before);
    expect(read(marked.docx, 'docProps/core.xml')).toBe(read(docx, 'docProps/core.xml'));
  });

  it('returns a template without tags as it is, to be previewed all the same', () => {
    const docx = buildDocx({ body: para('Nothing to fill in here.'), header: para('Plain') });
    const marked = markTemplate(docx);
    expect(marked.tags).toBe(0);
    expect(marked.docx.equals(docx)).toBe(true);
  });

  it('follows the delimiters it is given', () => {
    const docx = buildDocx({ body: para('Dear {{name}}, {not a tag}') });
    const marked = markTemplate(docx, { delimiters: { start: '{{', end: '}}' } });
    expect(marked.tags).toBe(1);
    expect(runs(read(marked.docx, 'word/document.xml'))).toEqual([
      ['Dear ', ''],
      ['{{name}}', MARK_FILL.value],
      [', {not a tag}', ''],
    ]);
  });

  it('fails a broken template as render does, listing every problem', () => {
    const docx = buildDocx({ body: para('Dear {name, {#flag}open') });
    const err = failure(() => markTemplate(docx));
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.length).toBeGreaterThanOrEqual(2);
    expect(err.details.every((d) => d.field === 'template')).toBe(true);
  });

  it('fails what is not a .docx as unsupported-file-type naming the document, as render does', () => {
    const err = failure(() => markTemplate(Buffer.from('Dear {name}, plain text')));
    expect(err.slug).toBe('unsupported-file-type');
    expect(err.details).toEqual([{ field: 'document', message: 'unknown: not a PDF or .docx' }]);
  });
});
