export { asBuffer } from './as-buffer.js';
export { parseDuration } from './duration.js';
export { safeUrl } from './safe-url.js';
export { didYouMean, nearMatch } from './near-match.js';
