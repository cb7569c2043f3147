import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';

/**
 * Parts a macro-enabled document leaves behind when Word saves it as .docx, or that only macro
 * tooling writes: VBA data, key bindings and toolbars for macros. (A package with the macro
 * project itself is refused when it is opened: see lint-template.ts.)
 */
const MACRO_TRACES = [
  'application/vnd.ms-word.vbadata+xml',
  'application/vnd.ms-word.keymapcustomizations+xml',
  'application/vnd.ms-word.attachedtoolbars',
];

export function macroFindings(lint: LintPackage): LintFinding[] {
  const traces = lint.pkg.archive.entries
    .map((e) => e.name)
    .filter((name) => MACRO_TRACES.includes(lint.contentType(name)));
  const dangling = lint
    .relationships()
    .filter((r) => r.type.endsWith('/vbaProject'))
    .map((r) => r.resolved);
  return [...traces, ...dangling].map((name) =>
    finding(
      'macros',
      { part: 'package', paragraph: null, excerpt: name },
      `The document carries traces of Word macros (${name}) though not the macros themselves: it was made from a macro-enabled document. docpipe never runs macros, so nothing they did on the author's machine happens in the PDF.`,
      { severity: 'warning' },
    ),
  );
}
