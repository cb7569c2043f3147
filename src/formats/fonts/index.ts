export {
  documentFonts,
  latinFontsUsed,
  MAX_DOCUMENT_FONTS,
  type DocumentFont,
  type FontSlot,
  type FontUse,
} from './document-fonts.js';
export type { FontPartKind, FontSource } from './font-parts.js';
export {
  resolveFont,
  embeddedFamily,
  withoutSubsetTag,
  type ResolvedFont,
} from './resolve-font.js';
export { installedFonts, forgetInstalledFonts, type InstalledFonts } from './installed-fonts.js';
export { isMetricCompatible, metricCompatibleFamilies, isSymbolFont } from './metric-compatible.js';
export {
  charactersNotDrawn,
  coverageOf,
  installedCoverage,
  forgetFontCoverage,
  type FontCoverage,
} from './font-coverage.js';
