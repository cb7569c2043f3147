export {
  neutralizeExternalReferences,
  neutralizePackage,
  planNeutralization,
  INERT_TARGET,
  type NeutralizedReference,
} from './external-references.js';
export {
  planEmbeddedFontRemoval,
  partsNamingEmbeddedFonts,
  namesEmbeddedFont,
  embeddedFamilies,
  type EmbeddedFont,
  type EmbeddedFontStyle,
} from './embedded-fonts.js';
export {
  hardenPackage,
  hardenedTemplate,
  mayNeedHardening,
  MAX_EMBEDDING_DEPTH,
  MAX_EMBEDDED_DOCUMENTS,
  type HardenedPackage,
  type HardenedTemplate,
} from './harden-package.js';
