import type { Delimiters } from '../../document/fill/index.js';
import { readInput, TooLargeInput } from '../../base/files/index.js';
import { tooLargeSniff, type SniffLimits } from '../../formats/sniff/index.js';
import { finding, type LintFinding } from './lint-rules.js';
import { lintTemplate, refusalFinding } from './lint-template.js';
import type { LintTarget } from './lint-targets.js';

/** A template's findings; `errors` and `warnings` count them. */
export interface TemplateReport {
  template: string;
  errors: number;
  warnings: number;
  findings: LintFinding[];
}

export interface LintFileOptions {
  /** The configured delimiters, used unless document.json or `override` sets others. */
  delimiters: Delimiters;
  /** Delimiters given on the command line: they win over document.json. */
  override?: Delimiters;
  limits: SniffLimits;
  /** @defaultValue true */
  fonts?: boolean;
}

/**
 * Lints one template file: read no further than the input limit, with its document.json's
 * delimiters, and with document.json's own problems among the findings. A file that cannot be
 * read at all is the caller's InputError (bad usage), as for every command.
 */
export async function lintFile(
  target: LintTarget,
  options: LintFileOptions,
): Promise<TemplateReport> {
  const found: LintFinding[] = [];
  if (target.documentJson)
    for (const problem of target.documentJson.problems)
      found.push(
        finding(
          'invalid_document_json',
          { part: 'document.json', paragraph: null, excerpt: '' },
          `${target.documentJson.file}: ${problem}.`,
        ),
      );
  const bytes = await readInput(target.template, options.limits.maxInputBytes);
  const delimiters = options.override ?? target.delimiters ?? options.delimiters;
  found.push(
    ...(bytes instanceof TooLargeInput
      ? [refusalFinding(tooLargeSniff(bytes))]
      : lintTemplate(bytes, {
          delimiters,
          limits: options.limits,
          fonts: options.fonts,
          fields: target.fields,
        })),
  );
  return {
    template: target.template,
    errors: found.filter((f) => f.severity === 'error').length,
    warnings: found.filter((f) => f.severity === 'warning').length,
    findings: found,
  };
}
