export { fillTemplate, fillPackage, templateCache, type FillResult } from './fill.js';
export { TemplateCache, type TemplateCacheLimits } from './template-cache.js';
export {
  resolveFillOptions,
  parseDelimiters,
  DEFAULT_TIME_ZONE,
  type FillOptions,
  type ResolvedFillOptions,
} from './fill-options.js';
export {
  compileTemplate,
  DEFAULT_DELIMITERS,
  TemplateBrokenError,
  type CompiledTemplate,
  type Delimiters,
} from './template.js';
export { type TemplateField, type TagUsage } from './template-fields.js';
export { type InnerField } from './inner-fields.js';
export { declareFields } from './declared-fields.js';
export { type TemplateProblem } from './template-errors.js';
export {
  TAG_TYPES,
  resolveTagInputs,
  type TagInput,
  type TagType,
  type ResolvedTag,
} from './tag-input.js';
export { SUPPORTED_LANGUAGES, DEFAULT_LOCALE } from './locale.js';
export { type PartKind } from './parts.js';
export {
  DEFAULT_VALUE_LIMITS,
  MAX_TAG_NESTING,
  VALUE_LIMIT_VARIABLES,
  valueLimitsProblems,
  type ValueLimits,
} from './value-limits.js';
export { tagListBoundProblems } from './tag-bounds.js';
export {
  FIELD_TYPES,
  declarationProblems,
  type FieldDeclaration,
  type FieldDeclarations,
  type FieldType,
} from './field-declarations.js';
export { ListRow, type ResolvedCell } from './list-row.js';
