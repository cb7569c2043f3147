import { shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { attribute, xmlTokens } from './xml-tokens.js';

/**
 * Document settings a signer's copy should not carry: a mail-merge data source (Word asks to
 * run its query whenever the filled .docx is opened) and an attached template (Word pulls
 * styles and macros from the author's own copy of it; docpipe never does).
 */
export function settingsFindings(lint: LintPackage): LintFinding[] {
  const settings = lint.settingsPart();
  if (!settings) return [];
  const part = lint.label(settings);
  const targets = new Map(
    lint
      .relationships()
      .filter((r) => r.from === settings)
      .map((r) => [r.id, r.target]),
  );
  const found: LintFinding[] = [];
  /** The data source named in w:mailMerge, once one is met. */
  let mailMerge: string | undefined;
  let inMailMerge = false;
  for (const token of xmlTokens(lint.xml(settings) ?? '')) {
    if (token.kind === 'text') continue;
    if (token.kind === 'close') {
      if (token.name === 'w:mailMerge') inMailMerge = false;
    } else if (token.name === 'w:mailMerge') {
      inMailMerge = token.kind === 'open';
      mailMerge ??= '';
    } else if (inMailMerge && token.name === 'w:query')
      mailMerge ||= attribute(token.attrs, 'val') ?? '';
    else if (inMailMerge && token.name === 'w:dataSource')
      mailMerge ||= targets.get(attribute(token.attrs, 'id') ?? '') ?? '';
    else if (token.name === 'w:attachedTemplate') {
      const target = shortText(targets.get(attribute(token.attrs, 'id') ?? '') ?? '');
      found.push(
        finding(
          'attached_template',
          { part, paragraph: null, excerpt: target },
          `The document is attached to the Word template "${target}": on the author's machine Word may take styles and macros from it, docpipe never does, so what the author sees can differ from the PDF; the path also travels with the filled .docx.`,
        ),
      );
    }
  }
  if (mailMerge !== undefined)
    found.push(
      finding(
        'mail_merge_field',
        { part, paragraph: null, excerpt: shortText(mailMerge) },
        'The document is set up as a mail-merge main document: Word asks to run its data source query whenever the filled .docx is opened, and docpipe never merges it.',
        { severity: 'warning' },
      ),
    );
  return found;
}
