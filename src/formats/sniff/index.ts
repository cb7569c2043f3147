export { sniff, sniffBytes, sniffPackage, openDocx, type SniffedPackage } from './sniff.js';
export {
  UNSUPPORTED_REASONS,
  unsupported,
  tooLargeSniff,
  type SniffResult,
  type SniffKind,
  type UnsupportedReason,
  type PdfSniff,
  type DocxSniff,
  type UnsupportedSniff,
} from './sniff-result.js';
export { DEFAULT_SNIFF_LIMITS, sniffLimitsProblems, type SniffLimits } from './sniff-limits.js';
export type { DocxPackage } from './docx-package.js';
export { SniffCache } from './sniff-cache.js';
export { startsAsPdf } from './pdf-probe.js';
