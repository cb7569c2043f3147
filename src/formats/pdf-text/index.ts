export type { PdfRect, TextMatch } from './text-match.js';
export { findText, pageTexts } from './find-text.js';
export { removeText } from './remove-text.js';
export { TextLayer, normalizeText, textLayerOf } from './text-layer.js';
export { PdfTextError, type PdfTextReason } from './pdf-text-error.js';
export { MAX_DOCUMENT_OPERATORS, MAX_FORM_DEPTH, MAX_PAGE_OPERATORS } from './page-glyphs.js';
export { MAX_CMAP_ENTRIES } from './cmap.js';
export { MAX_OBJECT_READS } from './pdf-source.js';
