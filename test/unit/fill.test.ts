import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../src/document/fill/index.js';
import { type TagInput } from '../../src/document/values/index.js';
import { documentText, templateFields } from '../../src/document/inspect/index.js';
import { openDocx, sniffBytes } from '../../src/formats/sniff/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const text = (docx: Buffer, part = 'body') =>
  documentText(docx)
    .filter((p) => p.part === part)
    .map((p) => p.text)
    .join('');

const t = (tag: string, value: unknown, type = 'text', format?: string): TagInput => ({
  tag,
  value,
  type,
  ...(format ? { format } : {}),
});

describe('fill', () => {
  it('fills body, header, footer, footnotes, endnotes and document properties', () => {
    const docx = buildDocx({
      body: para('Body {name}'),
      header: para('Header {name}'),
      footer: para('Footer {city}'),
      footnotes: '<w:footnote w:id="1"><w:p><w:r><w:t>Note {city}</w:t></w:r></w:p></w:footnote>',
      endnotes: '<w:endnote w:id="1"><w:p><w:r><w:t>End {name}</w:t></w:r></w:p></w:endnote>',
      title: 'Title {name}',
    });
    const out = fillTemplate(docx, [t('name', 'Åse'), t('city', 'Odense')]).docx;
    expect(text(out)).toBe('Body Åse\n');
    expect(text(out, 'header')).toBe('Header Åse\n');
    expect(text(out, 'footer')).toBe('Footer Odense\n');
    expect(text(out, 'footnotes')).toBe('Note Odense\n');
    expect(text(out, 'endnotes')).toBe('End Åse\n');
    expect(openDocx(out).archive.read('docProps/core.xml').toString()).toContain(
      '<dc:title>Title Åse</dc:title>',
    );
  });

  it('fills tags split across runs, keeping the first run', () => {
    const docx = buildDocx({
      body: para('Rent: ', run('{monthly'), run('_', true), run('rent}'), ' kr.'),
    });
    const out = fillTemplate(docx, [t('monthly_rent', 45250.5, 'number', '#,##0.00')]).docx;
    expect(text(out)).toBe('Rent: 45.250,50 kr.\n');
  });

  it('uses configured delimiters such as {{tag}}', () => {
    const docx = buildDocx({ body: para('Hi {{ name }}, {keep} this') });
    const out = fillTemplate(docx, [t('name', 'Bo')], {
      delimiters: { start: '{{', end: '}}' },
    }).docx;
    expect(text(out)).toBe('Hi Bo, {keep} this\n');
  });

  it('shows and hides sections by booleans, and needs no values inside a hidden section', () => {
    const docx = buildDocx({
      body:
        para('{#pets}Pets: {pet_name}.{/pets}') +
        para('{^pets}No pets.{/pets}') +
        para('{#vip}VIP{/vip}end'),
    });
    const withPets = fillTemplate(docx, [
      t('pets', true, 'boolean'),
      t('pet_name', 'Fido'),
      t('vip', 'false', 'boolean'),
    ]).docx;
    // An inline section that hides leaves its (now empty) paragraph, as in Word.
    expect(text(withPets)).toBe('Pets: Fido.\n\nend\n');
    const without = fillTemplate(docx, [
      t('pets', false, 'boolean'),
      t('vip', true, 'boolean'),
    ]).docx;
    expect(text(without)).toBe('\nNo pets.\nVIPend\n');
  });

  it('turns newlines into line breaks and escapes everything', () => {
    const docx = buildDocx({ body: para('{a}') });
    const out = fillTemplate(docx, [t('a', 'line 1\nline <2> & "3"\u0007')]).docx;
    expect(text(out)).toBe('line 1\nline <2> & "3"\n');
    const xml = openDocx(out).archive.read('word/document.xml').toString();
    expect(xml).toContain('<w:br/>');
    expect(xml).toContain('line &lt;2&gt; &amp;');
    expect(sniffBytes(out).kind).toBe('docx');
  });

  it('never evaluates values or tags', () => {
    const docx = buildDocx({ body: para('{a} {b}') });
    const out = fillTemplate(docx, [t('a', '{b}'), t('b', '${process.exit(1)} {{7*7}}')]).docx;
    expect(text(out)).toBe('{b} ${process.exit(1)} {{7*7}}\n');
    const proto = buildDocx({ body: para('{constructor} {__proto__}') });
    const err = failure(() => fillTemplate(proto, []));
    expect(err.details.map((d) => d.field)).toEqual(['tags.constructor', 'tags.__proto__']);
  });

  it('inserts a raw-XML tag as escaped text, never as markup', () => {
    const docx = buildDocx({ body: '<w:p><w:r><w:t>{@raw}</w:t></w:r></w:p>' });
    const out = fillTemplate(docx, [t('raw', '</w:t></w:r></w:p><w:p><w:r><w:t>INJECTED')]).docx;
    const xml = openDocx(out).archive.read('word/document.xml').toString();
    expect(xml).not.toContain('<w:t>INJECTED');
    expect(text(out)).toContain('</w:t></w:r></w:p><w:p><w:r><w:t>INJECTED');
  });

  it('copies untouched parts byte for byte and gives equal bytes for equal input', () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const docx = buildDocx({
      body: para('{a}'),
      extra: [{ name: 'word/media/image1.png', data: png }],
    });
    const first = fillTemplate(docx, [t('a', 'x')]).docx;
    const second = fillTemplate(docx, [t('a', 'x')]).docx;
    expect(first.equals(second)).toBe(true);
    const inPkg = openDocx(docx).archive;
    const outPkg = openDocx(first).archive;
    expect(outPkg.raw(outPkg.entry('word/media/image1.png')!)).toEqual(
      inPkg.raw(inPkg.entry('word/media/image1.png')!),
    );
    expect(outPkg.read('_rels/.rels')).toEqual(inPkg.read('_rels/.rels'));
  });
});

describe('fill: every problem in one answer', () => {
  const template = buildDocx({
    body: para('{start_date} {amount} {flag} {name}'),
    header: para('{company}'),
  });

  it('lists bad values, bad formats, unknown types and missing tags together', () => {
    const err = failure(() =>
      fillTemplate(template, [
        t('start_date', '2025-02-30', 'date'),
        t('amount', 10, 'number', '#.#.#'),
        t('flag', 'maybe', 'boolean'),
        t('name', 'x', 'person'),
      ]),
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual([
      'tags[0].value',
      'tags[1].format',
      'tags[2].value',
      'tags[3].type',
      'tags.company',
    ]);
  });

  it('in strict mode also refuses values for tags the template lacks, under the document path', () => {
    const err = failure(() =>
      fillTemplate(
        template,
        [
          t('start_date', '2025-01-01', 'date'),
          t('amount', 1, 'number'),
          t('flag', true, 'boolean'),
          t('name', 'n'),
          t('company', 'c'),
          t('extra', 'e'),
        ],
        { strict: true, field: 'documents[0]' },
      ),
    );
    expect(err.details).toEqual([
      {
        field: 'documents[0].tags[5].tag',
        message:
          'documents[0].tags[5] (extra): the template has no such field (strict mode refuses values it would not show)',
      },
    ]);
  });

  it('accepts extra values when not strict', () => {
    const out = fillTemplate(buildDocx({ body: para('{a}') }), [
      t('a', '1'),
      t('unused', '2'),
    ]).docx;
    expect(text(out)).toBe('1\n');
  });

  it('reports a broken template with every error: tag, part and excerpt, plus value problems', () => {
    const broken = buildDocx({
      body: para('Dear {first_name and welcome.') + para('{#loop}never closed'),
      header: para('Case {case_no}}'),
    });
    const err = failure(() =>
      fillTemplate(broken, [t('x', 'bad', 'number')], { field: 'documents[1]' }),
    );
    expect(err.slug).toBe('document-production-failed');
    const messages = err.details.map((d) => `${d.field} ${d.message}`);
    expect(messages).toEqual([
      'documents[1] The tag "{first_name" is not closed: "}" is missing after it in body paragraph 1 (word/document.xml), near "Dear {first_name and welcome."',
      'documents[1] The loop with tag "loop" is unclosed in body paragraph 2 (word/document.xml), near "{#loop}never closed"',
      'documents[1] The tag "{case_no}}" closes with "}" twice in header paragraph 1 (word/header1.xml), near "Case {case_no}}"',
      'documents[1].tags[0].value documents[1].tags[0] (x): "bad" is not a number; send a JSON number or a decimal string such as 45250.50',
    ]);
  });

  it('refuses XML docxtemplater cannot read (a stray end tag) as a broken template, not a crash', () => {
    const stray = buildDocx({ body: para('{x}') + '</w:t>' });
    const err = failure(() =>
      fillTemplate(stray, [t('x', 'a', 'text')], { field: 'documents[0]' }),
    );
    expect(err.slug).toBe('document-production-failed');
    expect(err.details).toEqual([
      { field: 'documents[0]', message: 'The template contains malformed xml' },
    ]);
  });

  it('refuses an empty tag and a non-.docx input with their own slugs', () => {
    expect(failure(() => fillTemplate(buildDocx({ body: para('a { } b') }), [])).slug).toBe(
      'document-production-failed',
    );
    const pdf = failure(() =>
      fillTemplate(Buffer.from('%PDF-1.4\n%%EOF'), [], { field: 'documents[0]' }),
    );
    expect(pdf.slug).toBe('unsupported-file-type');
    expect(pdf.details[0]?.field).toBe('documents[0]');
  });

  it('refuses bad options together', () => {
    const err = failure(() =>
      fillTemplate(template, [], {
        locale: 'xx',
        timeZone: 'Mars/Base',
        delimiters: { start: '', end: '}' },
      }),
    );
    expect(err.details.map((d) => d.field)).toEqual(
      expect.arrayContaining(['locale', 'timeZone', 'delimiters']),
    );
  });
});

describe('fields', () => {
  it('lists tags with kind, parts and counts', () => {
    const docx = buildDocx({
      body: para('{name} {#vip}{name} {perk}{/vip}{^vip}none{/vip}'),
      header: para('{name}'),
      title: '{title}',
    });
    expect(templateFields(docx)).toEqual([
      {
        tag: 'name',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 3,
        parts: [
          { part: 'body', file: 'word/document.xml', count: 2 },
          { part: 'header', file: 'word/header1.xml', count: 1 },
        ],
        within: [],
      },
      {
        tag: 'vip',
        kind: 'section',
        usedAs: ['section', 'inverted-section'],
        count: 2,
        parts: [{ part: 'body', file: 'word/document.xml', count: 2 }],
        within: [],
        inner: [
          { tag: 'name', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
          { tag: 'perk', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
        ],
      },
      {
        tag: 'perk',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        parts: [{ part: 'body', file: 'word/document.xml', count: 1 }],
        within: ['vip'],
      },
      {
        tag: 'title',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        parts: [{ part: 'properties', file: 'docProps/core.xml', count: 1 }],
        within: [],
      },
    ]);
  });
});
