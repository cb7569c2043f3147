export {
  checkPdf,
  finishProducedPdf,
  type PdfInfo,
  type PdfOrigin,
  type StampOptions,
} from './pdf-check.js';
export { findStreamEnd, useFastStreamEnd } from './stream-end.js';
export { asBuffer } from './as-buffer.js';
