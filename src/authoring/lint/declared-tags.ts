import { didYouMean } from '../../base/util/index.js';
import { CURRENT_SCOPE_TAG } from '../../document/fields/index.js';
import { declarationOf, type FieldDeclarations } from '../../document/values/index.js';
import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { tagsOf } from './tags.js';
import { anchorReading } from './anchor-findings.js';

/**
 * Tags that name no field `document.json` declares, where it declares them: a misspelt tag
 * (`{client_nmae}` for `client_name`) would otherwise wait for a value no caller can send, since
 * a declared document refuses values for undeclared fields. Inside a declared list's loop a tag
 * may also name one of its columns (docxtemplater looks a name up in the row, then outside).
 * Each name is reported once, where it first appears, with the nearest declared name.
 */
export function undeclaredTagFindings(
  lint: LintPackage,
  fields: FieldDeclarations | undefined,
): LintFinding[] {
  if (fields === undefined) return [];
  const found: LintFinding[] = [];
  const reported = new Set<string>();
  for (const part of lint.parts) {
    const open: string[] = [];
    for (const tag of tagsOf(part, lint.delimiters)) {
      if (tag.paragraph.inFallback) continue;
      if (tag.kind === 'close') {
        const at = open.lastIndexOf(tag.name);
        if (at !== -1) open.length = at;
        continue;
      }
      const known = namesInScope(fields, open);
      if (tag.kind === 'open' || tag.kind === 'inverted') open.push(tag.name);
      if (tag.name === CURRENT_SCOPE_TAG || known.has(tag.name) || reported.has(tag.name)) continue;
      // An anchor is no field (anchor-findings.ts reports a malformed one).
      if (anchorReading(tag, lint.delimiters).status !== 'other') continue;
      reported.add(tag.name);
      found.push(
        finding(
          'undeclared_tag',
          {
            part: part.label,
            paragraph: tag.paragraph.index,
            excerpt: excerptOf(tag.paragraph.text, tag.at, tag.end),
          },
          `The tag "${tag.text}" names no field that document.json declares, so no value can fill it${didYouMean(tag.name, known)}.`,
        ),
      );
    }
  }
  return found;
}

/** The declared names a tag may use within the open sections: the fields, and lists' columns. */
function namesInScope(fields: FieldDeclarations, open: string[]): Set<string> {
  const names = new Set(Object.keys(fields));
  let scope: FieldDeclarations | undefined = fields;
  for (const section of open) {
    const columns: FieldDeclarations | undefined = declarationOf(scope, section)?.columns;
    if (columns === undefined) continue;
    for (const name of Object.keys(columns)) names.add(name);
    scope = columns;
  }
  return names;
}
