export { asBuffer } from './as-buffer.js';
export { parseDuration, type DurationOptions } from './duration.js';
export { safeUrl } from './safe-url.js';
export { didYouMean, nearMatch } from './near-match.js';
export {
  utcOffset,
  writtenDate,
  writtenDateTime,
  writtenLanguage,
  type WrittenLanguage,
} from './written-date.js';
export {
  PPM,
  applyRate,
  formatFraction,
  formatKroner,
  formatPercent,
  parseFraction,
  parseKroner,
} from './money.js';
