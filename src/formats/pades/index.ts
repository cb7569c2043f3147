export { loadSealer, type Sealer } from './sealer.js';
export { SealerError, isSealerError, type SealerProblem } from './sealer-error.js';
export {
  DEFAULT_SELF_SIGNED_DAYS,
  makeSelfSignedP12,
  type SelfSignedOptions,
} from './self-signed-p12.js';
export {
  DEFAULT_TSA_TIMEOUT_MS,
  TimestampUnavailableError,
  sealPdf,
  type SealOptions,
} from './seal-pdf.js';
export { openPdf } from './open-pdf.js';
export { finalizeFontsStably } from './stable-fonts.js';
