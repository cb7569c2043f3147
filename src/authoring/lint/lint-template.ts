import { DEFAULT_DELIMITERS, type Delimiters } from '../../document/fill/index.js';
import {
  DEFAULT_SNIFF_LIMITS,
  sniffPackage,
  unsupported,
  type DocxPackage,
  type SniffLimits,
  type UnsupportedSniff,
} from '../../formats/sniff/index.js';
import { ZipError } from '../../formats/zip/index.js';
import { anchorFindings } from './anchor-findings.js';
import { commentFindings } from './comments.js';
import type { FieldDeclarations } from '../../document/values/index.js';
import { undeclaredTagFindings } from './declared-tags.js';
import { doubleBraceTemplate } from './double-brace-template.js';
import { drawingFindings } from './drawing-findings.js';
import { embeddedFontFindings } from './embedded-font-findings.js';
import { fieldFindings } from './field-codes.js';
import { fontFindings } from './font-findings.js';
import { linkFindings } from './link-findings.js';
import { LintPackage, partRank } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { macroFindings } from './macro-findings.js';
import { nearMissFindings } from './near-misses.js';
import { revisionFindings } from './revisions.js';
import { sectionFindings } from './sections.js';
import { settingsFindings } from './settings-findings.js';
import { tagVariantFindings } from './tag-variants.js';
import { templateFindings } from './template-findings.js';
import { formattingFindings } from './text-formatting.js';

export interface LintOptions {
  /** @defaultValue `{ }` */
  delimiters?: Delimiters;
  /** The limits sniffing holds any input to. @defaultValue DEFAULT_SNIFF_LIMITS */
  limits?: SniffLimits;
  /**
   * Whether to look up the fonts the text uses (fontconfig's tools): font_not_installed, and what
   * draws an embedded font (embedded_fonts is reported either way). @defaultValue true
   */
  fonts?: boolean;
  /**
   * The fields document.json declares: a tag that names none of them is `undeclared_tag`.
   * @defaultValue undefined (nothing declared, nothing checked)
   */
  fields?: FieldDeclarations;
}

/** Where a finding about the file as a whole is. */
const FILE = { part: 'package', paragraph: null, excerpt: '' };

/** docxtemplater's complaints that a near miss explains better, in the same paragraph. */
const EXPLAINED_BY_NEAR_MISS = new Set(['duplicate_open_tag', 'duplicate_close_tag']);

/** docxtemplater's errors that leave a part's sections unpaired or misplaced. */
const SECTION_ERRORS = new Set([
  'unclosed_loop',
  'unopened_loop',
  'closing_tag_does_not_match_opening_tag',
  'unbalanced_loop_tags',
  'loop_position_invalid',
]);

/**
 * Every problem of a template at once, in the order a reader meets them. A file that is not a
 * .docx docpipe accepts (a PDF, a macro-enabled document, a zip bomb, hostile XML) is one
 * finding saying why: sniffing's rules decide, exactly as for a render.
 */
export function lintTemplate(bytes: Uint8Array, options: LintOptions = {}): LintFinding[] {
  const sniffed = sniffPackage(bytes, options.limits ?? DEFAULT_SNIFF_LIMITS);
  if (sniffed.kind === 'pdf')
    return [finding('not_a_docx', FILE, 'The file is a PDF: a template must be a .docx.')];
  if (sniffed.kind !== 'docx') return [refusalFinding(sniffed)];
  try {
    return lintPackage(sniffed.pkg, options);
  } catch (err) {
    // A part sniffing did not need to read whole (an embedded workbook) and that does not read
    // back: render refuses the file for it, and so does lint, naming the part.
    if (err instanceof ZipError) return [refusalFinding(unsupported(err.problem, err.why))];
    throw err;
  }
}

function lintPackage(pkg: DocxPackage, options: LintOptions): LintFinding[] {
  const lint = new LintPackage(pkg, options.delimiters ?? DEFAULT_DELIMITERS);
  // A template written with the other delimiters throughout has one cause for every broken tag.
  const wrongDelimiters = doubleBraceTemplate(lint);
  const tags = wrongDelimiters ? [wrongDelimiters] : tagFindings(lint, options.fields);
  return inReadingOrder([...tags, ...documentFindings(lint, options)]);
}

/** What is wrong with the tags and sections. */
function tagFindings(lint: LintPackage, fields: FieldDeclarations | undefined): LintFinding[] {
  const nearMisses = nearMissFindings(lint);
  const template = templateFindings(lint);
  return [
    ...withoutExplained(template, nearMisses),
    ...nearMisses,
    ...sectionsOfSoundParts(sectionFindings(lint), template),
    ...tagVariantFindings(lint),
    ...undeclaredTagFindings(lint, fields),
    ...anchorFindings(lint),
  ];
}

/** What the PDF would show that the author may not see, whatever the tags. */
function documentFindings(lint: LintPackage, options: LintOptions): LintFinding[] {
  const fonts = options.fonts !== false;
  const embedded = embeddedFontFindings(lint, options.limits ?? DEFAULT_SNIFF_LIMITS, fonts);
  return [
    ...revisionFindings(lint),
    ...commentFindings(lint),
    ...formattingFindings(lint),
    ...fieldFindings(lint),
    ...settingsFindings(lint),
    ...linkFindings(lint),
    ...drawingFindings(lint),
    ...macroFindings(lint),
    ...embedded.findings,
    ...(fonts ? fontFindings(lint, embedded.families) : []),
  ];
}

/** Why sniffing refused the file, as a finding: the macros one for a macro-enabled document. */
export function refusalFinding(sniffed: UnsupportedSniff): LintFinding {
  if (sniffed.reason === 'macro-enabled')
    return finding(
      'macros',
      FILE,
      `The file is refused: ${sniffed.message}. docpipe never runs macros and does not accept documents that carry them.`,
    );
  return finding(
    'not_a_docx',
    FILE,
    `The file is refused (${sniffed.reason}): ${sniffed.message}.`,
  );
}

function withoutExplained(template: LintFinding[], nearMisses: LintFinding[]): LintFinding[] {
  const explained = new Set(nearMisses.map((f) => `${f.part}\u0000${f.paragraph}`));
  return template.filter(
    (f) => !(EXPLAINED_BY_NEAR_MISS.has(f.id) && explained.has(`${f.part}\u0000${f.paragraph}`)),
  );
}

/** Section findings of parts whose sections docxtemplater already refused are beside the point. */
function sectionsOfSoundParts(sections: LintFinding[], template: LintFinding[]): LintFinding[] {
  const broken = new Set(template.filter((f) => SECTION_ERRORS.has(f.id)).map((f) => f.part));
  return sections.filter((f) => !broken.has(f.part));
}

/** The file's findings, the body, headers, footers, notes, the rest; by paragraph within each. */
function inReadingOrder(found: LintFinding[]): LintFinding[] {
  return found
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) =>
        partRank(a.f.part) - partRank(b.f.part) ||
        a.f.part.localeCompare(b.f.part, 'en', { numeric: true }) ||
        (a.f.paragraph ?? 0) - (b.f.paragraph ?? 0) ||
        a.i - b.i,
    )
    .map(({ f }) => f);
}
