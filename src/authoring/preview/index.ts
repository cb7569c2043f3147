export {
  markTemplate,
  type MarkOptions,
  type MarkedTemplate,
  type UnmarkedTags,
} from './mark-template.js';
export { markTagsInPart, type AnchorMarker, type MarkedPart } from './highlight-part.js';
export { drawPlaces } from './draw-places.js';
export { findTagSpans, type TagMark, type TagSpan } from './tag-spans.js';
export { MARK_FILL } from './mark-style.js';
export {
  previewTemplate,
  DEFAULT_PREVIEW_DPI,
  type Preview,
  type PreviewDeps,
  type PreviewPdf,
  type PreviewRequest,
} from './preview-template.js';
export { writePageImages, pageFileName } from './page-files.js';
