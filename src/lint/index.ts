export { lintTemplate, type LintOptions } from './lint-template.js';
export {
  LINT_RULES,
  type LintFinding,
  type LintId,
  type LintRule,
  type Severity,
} from './lint-rules.js';
