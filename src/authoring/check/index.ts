export {
  findTemplateFolders,
  isTemplateFolder,
  readTemplateFolder,
  SEARCH_DEPTH,
  templateId,
  type Fixture,
  type TemplateFolder,
} from './template-folders.js';
export { checkFixture, type RenderFixture } from './check-fixture.js';
export { runCheck, NO_FIXTURE, type CheckRun } from './run-check.js';
export {
  DEFAULT_CHECK_SETTINGS,
  DIFF_DPI,
  SNAPSHOT_DPI,
  type CheckSettings,
} from './check-settings.js';
export {
  FixtureRenderer,
  type FixtureRendererDeps,
  type RenderedFixture,
} from './fixture-renderer.js';
export {
  ScratchRenderer,
  type ScratchRender,
  type ScratchRendererDeps,
} from './scratch-renderer.js';
export type { CheckProblem, FixtureOutcome, ProblemKind } from './outcome.js';
export { reportTable } from './report-table.js';
export { SNAPSHOTS, pageSnapshot, textSnapshot } from './snapshot-files.js';
export {
  differingPages,
  normalizeText,
  textDifference,
  type TextDifference,
} from './text-snapshot.js';
export { missingSnippets, type MissingSnippet } from './expected-snippets.js';
export {
  changedFolder,
  watchTemplates,
  type TemplateWatch,
  type WatchOptions,
} from './watch-templates.js';
