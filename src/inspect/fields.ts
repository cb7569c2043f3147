import {
  compileTemplate,
  resolveFillOptions,
  type FillOptions,
  type TemplateField,
} from '../fill/index.js';
import { DocpipeError } from '../errors/index.js';
import { openDocx } from '../sniff/index.js';

export type FieldsOptions = Pick<FillOptions, 'delimiters' | 'field' | 'limits'>;

/**
 * The fields a template needs filled, with their kind, the parts they appear in and how often.
 * A broken template fails with `document-production-failed` listing every template error.
 */
export function templateFields(template: Uint8Array, options: FieldsOptions = {}): TemplateField[] {
  const { resolved, problems } = resolveFillOptions(options);
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  const pkg = openDocx(template, resolved.limits, resolved.field);
  return compileTemplate(pkg, resolved.delimiters, resolved.templateField).fields;
}
