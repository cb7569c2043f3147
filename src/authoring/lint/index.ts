export { lintTemplate, type LintOptions } from './lint-template.js';
export { lintFile, type LintFileOptions, type TemplateReport } from './lint-file.js';
export { lintTargets, type LintTarget } from './lint-targets.js';
export {
  LINT_RULES,
  type LintFinding,
  type LintId,
  type LintRule,
  type Severity,
} from './lint-rules.js';
