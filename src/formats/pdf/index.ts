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
