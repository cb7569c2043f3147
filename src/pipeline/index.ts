export { Renderer, type RendererDeps } from './renderer.js';
export { renderCacheKey, canonicalJson } from './cache-key.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
export type { RenderInput, RenderOptions, RenderResult, RenderStep } from './render-types.js';
export type { Engine } from './engine.js';
