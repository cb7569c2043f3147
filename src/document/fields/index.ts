export {
  CURRENT_SCOPE_TAG,
  filesInOrder,
  usageOf,
  collectFields,
  walkTags,
  type TemplateField,
  type TagUsage,
  type CompiledPart,
} from './template-fields.js';
export { type InnerField } from './inner-fields.js';
export { declareFields } from './declared-fields.js';
export { withoutListColumns } from './list-columns.js';
export { PART_ORDER, partKind, type PartKind } from './parts.js';
