export { Renderer, type RendererDeps } from './renderer.js';
export { renderCacheKey, canonicalJson } from './cache-key.js';
export type {
  EmptyPageNotice,
  Fidelity,
  FontSubstitutedNotice,
  RenderInput,
  RenderNotice,
  RenderOptions,
  RenderResult,
  RenderStep,
} from './render-types.js';
export { fidelityReport, fidelityRefusal, type FidelityReport } from './fidelity-notices.js';
export { placeMarkers, placeTextTags, type Placed } from './signature-places.js';
