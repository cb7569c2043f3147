export { TagInputSchema, type TagInput } from './tag-input-schema.js';
export {
  TAG_TYPES,
  resolveTagInputs,
  normalizeTagName,
  type TagType,
  type ResolvedTag,
} from './tag-input.js';
export {
  SUPPORTED_LANGUAGES,
  DEFAULT_LOCALE,
  checkTimeZone,
  resolveLocale,
  type ResolvedLocale,
} from './locale.js';
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
  declarationOf,
  type FieldDeclaration,
  type FieldDeclarations,
  type FieldType,
} from './field-declarations.js';
export { ListRow, type ResolvedCell } from './list-row.js';
export { tagLabel, withoutInvisible } from './value-preview.js';
export { columnPath } from './list-value.js';
export { bidiControlProblem } from './bidi.js';
export { readerTextProblem } from './reader-text.js';
