export {
  rasterizePdf,
  MAX_DPI,
  MAX_PAGE_PIXELS,
  MAX_RASTER_BYTES,
  MAX_RASTER_PAGES,
  RASTER_TIMEOUT_MS,
  type RasterOptions,
} from './rasterize-pdf.js';
export {
  compareImages,
  decodePng,
  CHANGE,
  DEFAULT_MAX_CHANGED,
  DEFAULT_TOLERANCE,
  type CompareOptions,
  type ImageComparison,
  type PixelBox,
} from './compare-images.js';
export { toGrayPng } from './gray-png.js';
export { readableDiff, type ReadableDiffInput } from './readable-diff.js';
export { pdfText, PDF_TEXT_TIMEOUT_MS, type PdfTextOptions } from './pdf-text.js';
export {
  isPopplerMissingError,
  PopplerMissingError,
  requirePoppler,
  type PopplerTool,
} from './poppler.js';
export { reencodePng, type PngLimits } from './reencode-png.js';
export { PngThread, PngThreadBusyError, type PngThreadOptions } from './png-thread.js';
