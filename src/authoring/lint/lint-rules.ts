/** How bad a finding is: an error makes `docpipe lint` exit 1; warnings alone exit 0. */
export type Severity = 'error' | 'warning';

/** One problem in a template, located as a template author finds it in Word. */
export interface LintFinding {
  /** docxtemplater's error id where it has one (`unclosed_tag`), else docpipe's own. */
  id: string;
  severity: Severity;
  /**
   * The part, named as its file is (`body`, `header1`, `footer2`, `footnotes`, `comments`,
   * `chart1`, `settings`, `styles`, `fontTable`; `afchunk.docx!/fontTable` in an embedded
   * document), or `package` for the file as a whole.
   */
  part: string;
  /** The paragraph, counted from 1 within the part; null for what is not in a paragraph. */
  paragraph: number | null;
  /** Short text around the problem, with the tag. */
  excerpt: string;
  explanation: string;
  fix?: string;
}

export interface LintRule {
  /** The usual severity; a few findings are milder or worse in some cases (docs/lint.md). */
  severity: Severity;
  /** What to do about it, when there is one thing to do. */
  fix?: string;
}

/**
 * Every finding lint reports, with its usual severity and fix. docs/lint.md explains each one
 * (test/unit/lint-rules.test.ts holds the two together).
 */
export const LINT_RULES = {
  // docxtemplater's own ids, from compiling the template as fill does.
  unclosed_tag: {
    severity: 'error',
    fix: 'Type the missing end delimiter, or delete the stray start delimiter.',
  },
  unopened_tag: {
    severity: 'error',
    fix: 'Type the missing start delimiter, or delete the stray end delimiter.',
  },
  duplicate_open_tag: { severity: 'error', fix: 'Delete the extra start delimiter.' },
  duplicate_close_tag: { severity: 'error', fix: 'Delete the extra end delimiter.' },
  unclosed_loop: { severity: 'error', fix: 'Add the closing {/name} where the section ends.' },
  unopened_loop: {
    severity: 'error',
    fix: 'Add the opening {#name} where the section starts, or delete the stray {/name}.',
  },
  closing_tag_does_not_match_opening_tag: {
    severity: 'error',
    fix: 'Close each section with its own name, innermost first: sections nest, they never overlap.',
  },
  unbalanced_loop_tags: {
    severity: 'error',
    fix: 'Nest the sections instead of overlapping them: close the outer one after the inner one.',
  },
  loop_position_invalid: {
    severity: 'error',
    fix: 'Open and close the section in the same table (to repeat rows), or both outside tables.',
  },
  raw_xml_tag_should_be_only_text_in_paragraph: {
    severity: 'error',
    fix: 'Give the {@tag} a paragraph of its own, or use a plain {tag}: docpipe fills raw tags as plain text.',
  },
  raw_tag_outerxml_invalid: {
    severity: 'error',
    fix: 'Put the {@tag} in a paragraph of its own.',
  },
  empty_tag: {
    severity: 'error',
    fix: 'Write the field name between the delimiters, or delete them.',
  },
  file_has_invalid_xml: {
    severity: 'error',
    fix: 'Open the template in Word and save it again; if Word cannot open it, the file is damaged.',
  },
  malformed_xml: {
    severity: 'error',
    fix: 'Open the template in Word and save it again; if Word cannot open it, the file is damaged.',
  },
  /** Any other of docxtemplater's errors, with its own explanation. */
  template_error: { severity: 'error' },
  // The file itself.
  not_a_docx: {
    severity: 'error',
    fix: 'Save the template from Word as a Word Document (.docx).',
  },
  invalid_document_json: {
    severity: 'error',
    fix: 'Correct document.json as the explanation says (docs/library.md describes its members).',
  },
  // Near misses: tags that look right to a person and are not tags to docpipe.
  undeclared_tag: {
    severity: 'error',
    fix: 'Correct the tag to the declared name, or declare the field in document.json.',
  },
  double_brace_template: {
    severity: 'error',
    fix: 'Set "delimiters": "{{ }}" in the template folder\'s document.json (docpipe lint --delimiters "{{ }}" to try it), or rewrite the tags as {name}.',
  },
  double_braces_in_single_brace_template: {
    severity: 'error',
    fix: 'Write {name}, or set "delimiters": "{{ }}" in document.json if the template uses {{name}} throughout.',
  },
  single_braces_in_double_brace_template: {
    severity: 'error',
    fix: 'Write {{name}}, or set the delimiters in document.json to "{ }" if the template uses {name} throughout.',
  },
  dollar_brace_tag: {
    severity: 'warning',
    fix: 'Delete the "$" unless it is a currency sign meant to stand before the value.',
  },
  square_bracket_tag: {
    severity: 'warning',
    fix: "Write it as a tag with the template's delimiters, such as {name}, or fill the text in by hand.",
  },
  smart_quotes_in_tag: {
    severity: 'warning',
    fix: 'Delete the quotes from the tag: field names have no quotes. Turn off Word\'s "straight quotes with smart quotes" while editing tags.',
  },
  nbsp_in_tag: {
    severity: 'warning',
    fix: 'Retype the space (or delete the invisible character) in the tag: show formatting marks in Word (Ctrl+Shift+8) to see it.',
  },
  tags_differ_in_case_or_spaces: {
    severity: 'warning',
    fix: 'Spell the tag the same way everywhere, or give the two fields clearly different names.',
  },
  section_crosses_cells: {
    severity: 'warning',
    fix: 'Keep the text that is not part of the section out of the rows the section spans, or start the section at the beginning of the first cell and end it at the end of the last.',
  },
  section_crosses_paragraphs: {
    severity: 'warning',
    fix: 'Put {#name} and {/name} in paragraphs of their own (then whole paragraphs come and go), or open and close the section within one paragraph.',
  },
  // Anchors: where each signer signs.
  malformed_anchor: {
    severity: 'error',
    fix: 'Write the anchor as its kind, a colon and the recipient, with no spaces: {sign:1}, {initials:2}, {name:1} or {date:1}, the recipient from 1 to 99.',
  },
  misspelt_anchor: {
    severity: 'warning',
    fix: "Spell the kind sign, initials, name or date (such as {sign:1}); if it is a value's tag, give it a name that does not look like an anchor.",
  },
  anchor_in_section: {
    severity: 'error',
    fix: 'Move the anchor out of the section: each anchor is one place, shown once.',
  },
  // What a signer would see that the author may not.
  tracked_changes: {
    severity: 'error',
    fix: 'In Word: Review > Accept (or Reject) > All Changes, then turn Track Changes off and save.',
  },
  comments: {
    severity: 'warning',
    fix: 'In Word: Review > Delete > Delete All Comments in Document, then save.',
  },
  hidden_text: {
    severity: 'warning',
    fix: 'Delete the hidden text, or clear Hidden in Font (Ctrl+D) if it should be seen.',
  },
  white_text: {
    severity: 'warning',
    fix: 'Delete the text, or give it a colour that shows on a white page.',
  },
  tiny_text: {
    severity: 'warning',
    fix: 'Set the text to a readable size (at least 8 pt), or delete it.',
  },
  self_updating_field: {
    severity: 'warning',
    fix: 'Replace the field with a tag (such as {date}) and send the value, or with plain text: select it and press Ctrl+Shift+F9.',
  },
  mail_merge_field: {
    severity: 'error',
    fix: 'Replace each merge field with a tag such as {name}; then Mailings > Start Mail Merge > Normal Word Document removes the data source.',
  },
  macros: {
    severity: 'error',
    fix: 'Save the template from Word as a Word Document (.docx), not a macro-enabled one.',
  },
  attached_template: {
    severity: 'warning',
    fix: 'In Word: Developer > Document Template, clear the attached template (or attach Normal), then save.',
  },
  // What LibreOffice will not show as the author expects.
  tag_in_chart: {
    severity: 'error',
    fix: 'Move the text out of the chart into the document, or write it into the chart by hand.',
  },
  tag_in_smartart: {
    severity: 'error',
    fix: 'Move the tag out of the SmartArt graphic into a text box or a table.',
  },
  tag_in_text_box: {
    severity: 'error',
    fix: 'Use an ordinary text box (Insert > Text Box) for text with tags, not WordArt.',
  },
  external_link: {
    severity: 'warning',
    fix: 'Embed the content in the document instead of linking to it (for a field, select it and press Ctrl+Shift+F9).',
  },
  linked_image: {
    severity: 'error',
    fix: 'Insert the picture into the document (Insert > Pictures, not "Link to File"), or break the link: File > Info > Edit Links to Files > Break Link.',
  },
  font_not_installed: {
    severity: 'warning',
    fix: 'Use a font docpipe has (docs/fonts.md lists them), or install the font on every machine that renders.',
  },
  embedded_fonts: {
    severity: 'warning',
    fix: 'Install the font on the docpipe machines if you hold a licence for it, or use a font docpipe has (docs/fonts.md lists them); embedding it in the file changes nothing.',
  },
} as const satisfies Record<string, LintRule>;

export type LintId = keyof typeof LINT_RULES;

/** A finding of a rule, with the rule's fix unless `fix` is given. */
export function finding(
  id: LintId,
  where: { part: string; paragraph: number | null; excerpt: string },
  explanation: string,
  options: { severity?: Severity; fix?: string } = {},
): LintFinding {
  const rule: LintRule = LINT_RULES[id];
  const fix = options.fix ?? rule.fix;
  return {
    id,
    severity: options.severity ?? rule.severity,
    part: where.part,
    paragraph: where.paragraph,
    excerpt: where.excerpt,
    explanation,
    ...(fix === undefined ? {} : { fix }),
  };
}
