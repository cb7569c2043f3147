import { compileTemplate, resolveFillOptions, type FillOptions } from '../fill/index.js';
import { declareFields, withoutListColumns, type TemplateField } from '../fields/index.js';
import { DocpipeError } from '../../base/errors/index.js';
import { openDocx } from '../../formats/sniff/index.js';

export type FieldsOptions = Pick<FillOptions, 'delimiters' | 'field' | 'limits' | 'fields'>;

/**
 * The fields a template needs filled, with their kind, the parts they appear in and how often; a
 * section holding tags lists them (`inner`). With declarations (`fields`, a library document's
 * document.json), each field carries its declared type and format, a declared list's columns too,
 * which are listed under their list only (not again at the top level).
 * A broken template fails with `document-production-failed` listing every template error.
 */
export function templateFields(template: Uint8Array, options: FieldsOptions = {}): TemplateField[] {
  const { resolved, problems } = resolveFillOptions(options);
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  const pkg = openDocx(template, resolved.limits, resolved.field);
  const { fields } = compileTemplate(pkg, resolved.delimiters, resolved.templateField);
  return withoutListColumns(declareFields(fields, resolved.fields), resolved.fields);
}
