export {
  decodePdfName,
  isNameChar,
  isPdfDelimiter,
  isPdfWhitespace,
  namesIn,
} from './pdf-names.js';
export { hasEncryptionDictionary } from './encryption-scan.js';
export { normalizedPdfHash } from './normalized-hash.js';
