import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/base/errors/index.js';
import { fillTemplate, templateCache } from '../../src/document/fill/index.js';
import { type TagInput } from '../../src/document/values/index.js';
import { type TemplateField } from '../../src/document/fields/index.js';
import { documentText, templateFields } from '../../src/document/inspect/index.js';
import { sniffBytes } from '../../src/formats/sniff/index.js';
import { corpusRows, type CorpusRow } from '../helpers/corpus.js';

type Delimiters = { start: string; end: string } | undefined;

const templates = corpusRows().filter(
  (r) => r.file.startsWith('templates/') && r.expectedKind === 'docx',
);
const byName = (r: CorpusRow) => r.file.slice('templates/'.length);

/** What a template's failure details say, in a few words, so the pinned table stays readable. */
const REASONS: [RegExp, string][] = [
  [
    /^\d+ tags are written with "\{\{ \}\}" delimiters, but the template is filled/s,
    'doubled delimiters',
  ],
  [/^The tag ".*" (opens|closes) with ".*" twice/s, 'duplicate delimiters'],
  [/^The tag ".*" is not closed/s, 'unclosed tag'],
  [/^The loop with tag .* is unclosed/s, 'unclosed loop'],
  [/^The tag ".*" is not opened/s, 'unopened tag'],
  [/ are misplaced /, 'misplaced loop'],
  [/^Unbalanced loop tags/, 'unbalanced loop'],
  [/^The raw tag .* should be the only text/s, 'raw tag not alone'],
  [/^Empty tag/, 'empty tag'],
  [/ is closed by the tag /, 'wrong closing tag'],
];
/** An unknown message is kept whole, so a new kind of failure shows in the diff. */
const reasonOf = (message: string) => REASONS.find(([re]) => re.test(message))?.[1] ?? message;

/**
 * Templates `fields` refuses with `{ }`, each with its count of details and their reasons. The
 * docxtpl and `{{ }}` ones are read with the wrong delimiters; the rest are broken templates.
 */
const REFUSED_SINGLE: Record<string, string> = {
  'docx-templates__ifStatementsOnSameLine.docx': '1 doubled delimiters',
  'docx-templates__ifStatementsOnSameRow1.docx': '1 doubled delimiters',
  'docx-templates__ifStatementsOnSameRow2.docx': '1 doubled delimiters',
  'docxtemplater__error-table-tags.docx': '1 misplaced loop',
  'docxtemplater__multiple-unclosed.docx': '3 unclosed tag',
  'docxtemplater__one-raw-xml-tag.docx': '1 raw tag not alone',
  'docxtemplater__one-unclosed.docx': '1 unclosed tag',
  'docxtemplater__one-unopened.docx': '3 unclosed loop, unopened tag',
  'docxtemplater__table-unbalanced-loop-2.docx': '1 unbalanced loop',
  'docxtemplater__table-unbalanced-loop.docx': '1 unbalanced loop',
  'docxtpl__cellbg_tpl.docx': '1 doubled delimiters',
  'docxtpl__comments_tpl.docx': '6 unclosed loop, unclosed tag',
  'docxtpl__custom_jinja_filters_tpl.docx': '10 duplicate delimiters',
  'docxtpl__doc_properties_tpl.docx': '12 duplicate delimiters, unclosed tag, unopened tag',
  'docxtpl__dynamic_table_tpl.docx': '1 doubled delimiters',
  'docxtpl__embedded_embedded_docx_tpl.docx': '2 duplicate delimiters',
  'docxtpl__embedded_main_tpl.docx': '2 duplicate delimiters',
  'docxtpl__escape_tpl.docx': '1 doubled delimiters',
  'docxtpl__get_undeclared_variables.docx': '1 doubled delimiters',
  'docxtpl__header_footer_entities_tpl.docx': '1 doubled delimiters',
  'docxtpl__header_footer_image_tpl.docx': '2 duplicate delimiters',
  'docxtpl__header_footer_inline_image_tpl.docx': '1 doubled delimiters',
  'docxtpl__header_footer_tpl.docx': '1 doubled delimiters',
  'docxtpl__header_footer_tpl_utf8.docx': '1 doubled delimiters',
  'docxtpl__horizontal_merge_tpl.docx': '1 doubled delimiters',
  'docxtpl__inline_image_tpl.docx': '1 doubled delimiters',
  'docxtpl__less_cells_after_loop_tpl.docx': '1 doubled delimiters',
  'docxtpl__merge_docx_master_tpl.docx': '2 duplicate delimiters',
  'docxtpl__module_execute_tpl.docx': '1 doubled delimiters',
  'docxtpl__multi_rendering_tpl.docx': '1 doubled delimiters',
  'docxtpl__nested_for_tpl.docx': '1 doubled delimiters',
  'docxtpl__order_tpl.docx': '1 doubled delimiters',
  'docxtpl__preserve_spaces_tpl.docx': '1 doubled delimiters',
  'docxtpl__richtext_and_if_tpl.docx': '2 duplicate delimiters',
  'docxtpl__richtext_eastAsia_tpl.docx': '1 doubled delimiters',
  'docxtpl__richtext_paragraph_tpl.docx': '6 duplicate delimiters, unclosed tag, unopened tag',
  'docxtpl__subdoc_tpl.docx': '2 duplicate delimiters',
  'docxtpl__vertical_merge_nested_tpl.docx': '1 doubled delimiters',
  'docxtpl__vertical_merge_tpl.docx': '1 doubled delimiters',
  'easy-template-x__content_controls.docx': '1 doubled delimiters',
  'easy-template-x__custom_delimiters.docx': '19 duplicate delimiters, raw tag not alone',
  'easy-template-x__empty_tag.docx': '2 empty tag',
  'easy-template-x__loop_-_nested_-_ignore_closing_tag_name.docx': '1 wrong closing tag',
  'easy-template-x__loop_-_paragraph_-_multi_line_-_with_loopOver.docx': '1 wrong closing tag',
  'easy-template-x__loop_-_paragraph_-_one_line_-_with_loopOver.docx': '1 wrong closing tag',
  'easy-template-x__loop_-_table_-_loopOver.docx': '2 wrong closing tag',
};

/** Pinned over the whole corpus: a regression in parsing, fields or the corpus moves a number. */
const EXPECTED = {
  single: { withFields: 78, withoutFields: 17, fields: 227, refused: REFUSED_SINGLE },
  double: { withFields: 33, withoutFields: 108, fields: 111, refused: {} },
};
const BROKEN = [
  'docxtemplater__error-table-tags.docx',
  'docxtemplater__multiple-unclosed.docx',
  'docxtemplater__one-unclosed.docx',
  'docxtemplater__one-unopened.docx',
  'easy-template-x__empty_tag.docx',
];
const DELIMITERS: [keyof typeof EXPECTED, Delimiters][] = [
  ['single', undefined],
  ['double', { start: '{{', end: '}}' }],
];

type Reading = { fields: TemplateField[] } | { refused: string; messages: string[] };

/** `fields` on one template: its fields, or the typed refusal summed up as the table pins it. */
function readFields(bytes: Buffer, delimiters: Delimiters): Reading {
  try {
    return { fields: templateFields(bytes, { delimiters }) };
  } catch (err) {
    if (!isDocpipeError(err) || err.slug !== 'document-production-failed') throw err;
    const messages = err.details.map((d) => d.message);
    const reasons = [...new Set(messages.map(reasonOf))].sort().join(', ');
    return { refused: `${messages.length} ${reasons}`, messages };
  }
}

/**
 * Filling a template docpipe compiled and cached earlier must give exactly the bytes a fresh
 * compile gives: other values, sections flipped, nothing of the earlier fill left anywhere.
 */
function expectCachedRenderExact(
  bytes: Buffer,
  fields: { tag: string; kind: string }[],
  delimiters: Delimiters,
): void {
  const other: TagInput[] = fields.map((f, i) =>
    f.kind === 'section'
      ? { tag: f.tag, value: i % 2 === 1, type: 'boolean' }
      : { tag: f.tag, value: `W${i}-second & <b>`, type: 'text' },
  );
  const hits = templateCache.hits;
  const cached = fillTemplate(bytes, other, { delimiters }).docx;
  templateCache.clear();
  const fresh = fillTemplate(bytes, other, { delimiters }).docx;
  expect(templateCache.hits).toBe(hits + 1);
  expect(cached.equals(fresh)).toBe(true);
}

/** Every field filled (sections true), converted back to text: each shown value must be there. */
function expectFilledValuesShow(bytes: Buffer, fields: TemplateField[], delimiters: Delimiters) {
  const tags: TagInput[] = fields.map((f, i) =>
    f.kind === 'section'
      ? { tag: f.tag, value: true, type: 'boolean' }
      : { tag: f.tag, value: `V${i}-ok`, type: 'text' },
  );
  const docx = fillTemplate(bytes, tags, { delimiters }).docx;
  expect(sniffBytes(docx).kind).toBe('docx');
  const text = documentText(docx)
    .map((p) => p.text)
    .join('\n');
  fields.forEach((f, i) => {
    const inTextPart = f.parts.some(
      (p) => p.part === 'body' || p.part === 'header' || p.part === 'footer',
    );
    // Top-level placeholders only: with every section true, those inside {^inverted} ones hide.
    const shown =
      f.kind === 'placeholder' && f.usedAs.includes('placeholder') && f.within.length === 0;
    if (shown && inTextPart) expect(text).toContain(`V${i}-ok`);
  });
}

describe('corpus templates', () => {
  it('are 141 .docx templates, 5 of them marked broken', () => {
    expect(templates.length).toBe(141);
    const broken = templates.filter((r) => r.notes.includes('BROKEN TEMPLATE')).map(byName);
    expect(broken).toEqual(BROKEN);
  });

  it.each(DELIMITERS)('with %s delimiters give the pinned fields and refusals', (which, delim) => {
    const summary = {
      withFields: 0,
      withoutFields: 0,
      fields: 0,
      refused: {} as Record<string, string>,
    };
    for (const row of templates) {
      const reading = readFields(readFileSync(row.path), delim);
      if ('refused' in reading) summary.refused[byName(row)] = reading.refused;
      else if (reading.fields.length === 0) summary.withoutFields += 1;
      else {
        summary.withFields += 1;
        summary.fields += reading.fields.length;
      }
    }
    expect(summary).toEqual(EXPECTED[which]);
  });

  it.each(templates.map((r) => [byName(r), r] as const))(
    '%s: a refusal names where, a template that gives fields fills, and filled values show',
    (name, row) => {
      const bytes = readFileSync(row.path);
      for (const [which, delimiters] of DELIMITERS) {
        const reading = readFields(bytes, delimiters);
        if ('refused' in reading) {
          expect(reading.refused).toBe(EXPECTED[which].refused[name as never]);
          for (const message of reading.messages)
            expect(message).toMatch(
              / in (body|header|footer|footnotes|endnotes|comments|properties|other)( paragraphs? [\d, and]+)? \(/,
            );
          continue;
        }
        expectFilledValuesShow(bytes, reading.fields, delimiters);
        expectCachedRenderExact(bytes, reading.fields, delimiters);
      }
    },
  );
});
