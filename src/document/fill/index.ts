export {
  fillTemplate,
  fillPackage,
  templateCache,
  type FillResult,
  type ShownValue,
} from './fill.js';
export { TemplateCache, type TemplateCacheLimits } from './template-cache.js';
export {
  resolveFillOptions,
  parseDelimiters,
  DEFAULT_TIME_ZONE,
  type FillOptions,
  type ResolvedFillOptions,
} from './fill-options.js';
export {
  compileTemplate,
  DEFAULT_DELIMITERS,
  TemplateBrokenError,
  type CompiledTemplate,
  type Delimiters,
} from './template.js';
export { type TemplateProblem } from './template-errors.js';
export { mayHoldAnchors } from './anchor-scan.js';
export { ANCHOR_PART } from './anchor-module.js';
export { type AnchorProblem } from './anchor-problems.js';
