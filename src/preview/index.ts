export {
  markTemplate,
  type MarkOptions,
  type MarkedTemplate,
  type UnmarkedTags,
} from './mark-template.js';
export { markTagsInPart, type MarkedPart } from './highlight-part.js';
export { findTagSpans, type TagMark, type TagSpan } from './tag-spans.js';
export { MARK_FILL } from './mark-style.js';
