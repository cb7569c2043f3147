export { Renderer, type RendererDeps } from './renderer.js';
export { renderCacheKey, canonicalJson } from './cache-key.js';
export type { RenderInput, RenderOptions, RenderResult, RenderStep } from './render-types.js';
export type { Engine } from './engine.js';
