import { shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import type { FieldCode, PartText } from './part-text.js';

/**
 * What LibreOffice 7.4 prints for fields it works out afresh when it opens the document
 * (measured: test/integration/lint-cli.test.ts renders each). PAGE, NUMPAGES and the like
 * are meant to change and are not listed.
 */
export const SELF_UPDATING: Record<string, string> = {
  DATE: 'the day docpipe renders the document, not a date the author chose',
  TIME: "the time of the render, by the server's clock",
  PRINTDATE: 'nothing: it comes out empty',
  SAVEDATE: 'nothing: it comes out empty',
  EDITTIME: '00:00',
  FILENAME: "the name of docpipe's temporary copy, not the template's",
  NUMWORDS: '0',
  NUMCHARS: '0',
  REVNUM: '0',
  ASK: 'nothing: it comes out empty',
};
/** Mail-merge fields, and whether the PDF shows what Word last showed or nothing (measured too). */
export const MAIL_MERGE: Record<string, 'last' | 'nothing'> = {
  MERGEFIELD: 'last',
  MERGESEQ: 'last',
  MERGEREC: 'nothing',
  NEXT: 'nothing',
  NEXTIF: 'nothing',
  SKIPIF: 'last',
};
/** Fields that bring in content from elsewhere; LibreOffice never fetches it. */
export const INCLUDES = new Set(['INCLUDETEXT', 'INCLUDEPICTURE', 'LINK', 'DDE', 'DDEAUTO']);

/** Field codes that will not print what the author saw in Word. */
export function fieldFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const part of lint.parts)
    for (const field of part.fields) {
      const f = fieldFinding(part, field);
      if (f) found.push(f);
    }
  return found;
}

function fieldFinding(part: PartText, field: FieldCode): LintFinding | undefined {
  const name = /^\s*(\S+)/.exec(field.instruction)?.[1]?.toUpperCase() ?? '';
  const where = {
    part: part.label,
    paragraph: field.paragraph,
    excerpt: shortText(field.instruction),
  };
  const shown = field.result.trim() ? `"${shortText(field.result)}"` : 'nothing';
  if (name in SELF_UPDATING)
    return finding(
      'self_updating_field',
      where,
      `This ${name} field showed ${shown} in Word; the PDF shows ${SELF_UPDATING[name]}.`,
    );
  if (name in MAIL_MERGE)
    return finding(
      'mail_merge_field',
      where,
      `This mail-merge ${name} field is not a tag: docpipe fills tags, not mail-merge fields, so the PDF shows ${MAIL_MERGE[name] === 'last' ? `${shown}, what Word last showed for it` : 'nothing for it'}.`,
    );
  if (INCLUDES.has(name))
    return finding(
      'external_link',
      where,
      `This ${name} field brings in content from elsewhere: docpipe's office never fetches it, so the PDF shows ${shown}, what Word last stored.`,
    );
  return undefined;
}
