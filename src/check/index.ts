export {
  findTemplateFolders,
  checkFixture,
  type TemplateFolder,
  type FixtureOutcome,
  type FillFunction,
} from './template-check.js';
