export {
  checkPdf,
  checkPdfFidelity,
  finishProducedPdf,
  type PdfInfo,
  type PdfOrigin,
  type StampOptions,
} from './pdf-check.js';
export { findStreamEnd, useFastStreamEnd } from './stream-end.js';
export type { PdfFidelity } from './pdf-fidelity.js';
export { embeddedFonts } from './page-fonts.js';
export { emptyPages } from './empty-pages.js';
export { drawsSomething } from './page-drawing.js';
// For the text layer (formats/pdf-text), which reads objects lazily and decodes content bounded.
export { readXrefChain, type XrefChain, type XrefEntry } from './xref-chain.js';
export { decodeUpTo } from './bounded-decode.js';
export { MAX_PAGE_CONTENT_BYTES } from './page-content.js';
export { PdfDamage } from './pdf-damage.js';
