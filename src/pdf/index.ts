export {
  checkPdf,
  finishProducedPdf,
  type PdfInfo,
  type PdfOrigin,
  type StampOptions,
} from './pdf-check.js';
