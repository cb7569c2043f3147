import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import { openDocx, type DocxPackage } from '../../formats/sniff/index.js';
import { resolveFillOptions, type FillOptions, type ResolvedFillOptions } from './fill-options.js';
import { resolveTagInputs, type ResolvedTag } from '../values/index.js';
import { compileTemplate, TemplateBrokenError } from './template.js';
import { TemplateCache } from './template-cache.js';
import { declareFields } from '../fields/index.js';
import { templateValueProblems, unshownColumns } from './scope-check.js';
import type { TemplateField } from '../fields/index.js';
import { tagLabel } from '../values/index.js';
import type { PlacedAnchor } from '../anchors/index.js';
import { anchorProblemDetails } from './anchor-problems.js';

export interface FillResult {
  /** The filled .docx. */
  docx: Buffer;
  /** The fields the template has, as `fields()` reports them. */
  fields: TemplateField[];
  /**
   * The anchors replaced by their markers, in document order (serial 1, 2, ...): each marker's
   * text is in the filled .docx once, and in the PDF once on each page that shows it.
   */
  anchors: PlacedAnchor[];
  /**
   * The text values written into parts a reader sees (body, headers, footers, notes), outside
   * any section (which may hide them), formatted as written: what the PDF's text layer must show.
   * Empty values, lists and booleans are left out.
   */
  shown: ShownValue[];
}

/** A value fill wrote where it shows: its tag, its position in the TagInput list, its text. */
export interface ShownValue {
  tag: string;
  index: number;
  text: string;
}

const SHOWING_PARTS = new Set(['body', 'header', 'footer', 'footnotes', 'endnotes']);

/**
 * Fills TagInput values into a .docx template. Every problem comes back in one typed failure:
 * `unsupported-file-type` when the bytes are not a real .docx, `document-production-failed` for a
 * broken template (with every template error), and `validation-failed` for values that do not
 * parse, formats that are wrong, tags without values and, in strict mode, values without tags.
 */
export function fillTemplate(
  template: Uint8Array,
  tags: unknown,
  options: FillOptions = {},
): FillResult {
  return fill((resolved) => openDocx(template, resolved.limits, resolved.field), tags, options);
}

/**
 * As {@link fillTemplate}, for a package sniffing already parsed and checked. With `compress`
 * false the changed parts are stored uncompressed: for a .docx that goes straight to LibreOffice.
 */
export function fillPackage(
  pkg: DocxPackage,
  tags: unknown,
  options: FillOptions = {},
  { compress = true }: { compress?: boolean } = {},
): FillResult {
  return fill(() => pkg, tags, options, compress);
}

/** Compiled templates of this thread (each worker thread has its own). */
export const templateCache = new TemplateCache();

function fill(
  open: (resolved: ResolvedFillOptions) => DocxPackage,
  tags: unknown,
  options: FillOptions,
  compress = true,
): FillResult {
  const { resolved, problems: optionProblems } = resolveFillOptions(options);
  const {
    values,
    problems: valueProblems,
    refused,
  } = resolveTagInputs(tags, resolved, resolved.tagsField);
  const early = [...optionProblems, ...valueProblems];
  // Bad options (an empty delimiter, say) must not reach docxtemplater at all, nor a list
  // refused as a whole: its values were not all read, so every tag would seem missing.
  if (optionProblems.length > 0 || refused) throw new DocpipeError('validation-failed', early);

  const pkg = open(resolved);
  let compiled;
  try {
    compiled = templateCache.get(pkg, resolved.delimiters, () =>
      compileTemplate(pkg, resolved.delimiters, resolved.templateField),
    );
  } catch (err) {
    if (err instanceof TemplateBrokenError && early.length > 0) {
      throw new TemplateBrokenError(err.problems, resolved.templateField, early);
    }
    throw err;
  }
  // An anchor that cannot be placed is the template's fault, as a broken tag is: refused with
  // every value problem beside it, before any value is checked against the template.
  if (compiled.anchorProblems.length > 0)
    throw new DocpipeError('document-production-failed', [
      ...anchorProblemDetails([...compiled.anchorProblems], resolved.field),
      ...early,
    ]);
  const problems = [
    ...early,
    ...templateValueProblems({
      compiled: compiled.compiled,
      pkg: compiled.pkg,
      values,
      tagsField: resolved.tagsField,
      delimiters: resolved.delimiters,
      fields: resolved.fields,
    }),
    ...(resolved.strict ? unusedValues(compiled.fields, values, resolved.tagsField) : []),
    ...(resolved.strict ? unshownColumns(compiled.compiled, compiled.pkg, values) : []),
  ];
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  return {
    docx: compiled.render(values, resolved.templateField, compress),
    fields: declareFields(compiled.fields, resolved.fields),
    anchors: compiled.anchors.map((a) => ({ ...a })),
    shown: shownValues(compiled.fields, values),
  };
}

function shownValues(fields: TemplateField[], values: Map<string, ResolvedTag>): ShownValue[] {
  const out: ShownValue[] = [];
  for (const f of fields) {
    if (f.kind !== 'placeholder' || f.within.length > 0) continue;
    if (!f.usedAs.some((u) => u === 'placeholder' || u === 'raw')) continue;
    if (!f.parts.some((p) => SHOWING_PARTS.has(p.part))) continue;
    const value = values.get(f.tag);
    if (!value || value.rows || value.text.trim() === '') continue;
    if (value.type !== 'text' && value.type !== 'number' && value.type !== 'date') continue;
    out.push({ tag: value.tag, index: value.index, text: value.text });
  }
  return out;
}

/** Strict mode: each value the template has no field for, named by its TagInput. */
function unusedValues(
  fields: TemplateField[],
  values: Map<string, ResolvedTag>,
  tagsField: string,
): FailureDetail[] {
  const known = new Set(fields.map((f) => f.tag));
  return [...values.values()]
    .filter((value) => !known.has(value.tag))
    .map(({ tag, index }) => {
      const at = `${tagsField}[${index}]`;
      return {
        field: `${at}.tag`,
        message: `${tagLabel(at, tag)}: the template has no such field (strict mode refuses values it would not show)`,
      };
    });
}
