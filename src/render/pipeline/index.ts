export { Renderer, type RendererDeps } from './renderer.js';
export { renderCacheKey, canonicalJson } from './cache-key.js';
export type {
  CharactersNotDrawnNotice,
  EmptyPageNotice,
  Fidelity,
  FontSubstitutedNotice,
  RenderInput,
  RenderNotice,
  RenderOptions,
  RenderResult,
  RenderStep,
  RenderEvidence,
  ValueNotShownNotice,
} from './render-types.js';
export { docpipeVersion, producersOf, renderEvidence, valuesSha256 } from './render-evidence.js';
export { valuesNotShown } from './shown-values.js';
export { valuesNotDrawn, charactersNotDrawnNotice } from './drawn-values.js';
export {
  fidelityReport,
  fidelityRefusal,
  noteworthyNotices,
  type FidelityReport,
} from './fidelity-notices.js';
export { placeMarkers, placeTextTags, type Placed } from './signature-places.js';
