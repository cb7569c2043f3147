import { DocpipeError, type FailureDetail } from '../errors/index.js';
import { openDocx, type DocxPackage } from '../sniff/index.js';
import { resolveFillOptions, type FillOptions, type ResolvedFillOptions } from './fill-options.js';
import { resolveTagInputs, normalizeTagName, type ResolvedTag } from './tag-input.js';
import { compileTemplate, TemplateBrokenError } from './template.js';
import { TemplateCache } from './template-cache.js';
import { CURRENT_SCOPE_TAG, usageOf, walkTags, type TemplateField } from './template-fields.js';

export interface FillResult {
  /** The filled .docx. */
  docx: Buffer;
  /** The fields the template has, as `fields()` reports them. */
  fields: TemplateField[];
}

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
  const problems = [
    ...early,
    ...missingTags(compiled.compiled, compiled.pkg, values, resolved.tagsField),
    ...(resolved.strict ? unusedValues(compiled.fields, values, resolved.tagsField) : []),
  ];
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  return {
    docx: compiled.render(values, resolved.templateField, compress),
    fields: compiled.fields,
  };
}

/**
 * Tags the template will show but that have no value. Tags inside a section that the values hide
 * (`{#flag}` with false, `{^flag}` with true) are not needed.
 */
function missingTags(
  compiled: Parameters<typeof walkTags>[0],
  pkg: Parameters<typeof walkTags>[1],
  values: Map<string, ResolvedTag>,
  tagsField: string,
): FailureDetail[] {
  const missing = new Set<string>();
  walkTags(compiled, pkg, (part) => {
    const tag = normalizeTagName(part.value);
    if (tag === CURRENT_SCOPE_TAG) return;
    const usage = usageOf(part);
    const value = values.get(tag);
    if (!value) {
      missing.add(tag);
      return;
    }
    if (usage === 'section') return value.truthy;
    if (usage === 'inverted-section') return !value.truthy;
  });
  return [...missing].map((tag) => ({
    field: `${tagsField}.${tag}`,
    message: `${tag} needs a value: the template shows this field`,
  }));
}

function unusedValues(
  fields: TemplateField[],
  values: Map<string, ResolvedTag>,
  tagsField: string,
): FailureDetail[] {
  const known = new Set(fields.map((f) => f.tag));
  return [...values.keys()]
    .filter((tag) => !known.has(tag))
    .map((tag) => ({
      field: `${tagsField}.${tag}`,
      message: `${tag} is not a field of this template (strict mode refuses values it would not show)`,
    }));
}
