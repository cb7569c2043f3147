/**
 * v2 forms (spec 4.1): the forms a company's operator imports (a folder with form.json and its
 * templates, checked by sniff and lint), their reads, and submit, which fills the templates with
 * the TagInputs and the defaults and creates the case through v2's create path under the state
 * rules of spec 3, a CPR number stored only encrypted. docs/forms.md describes the folder
 * format, the routes and the rules.
 */
export { FormService } from './form-service.js';
export { FormRepository, formOf, type NewForm } from './form-repository.js';
export { importForm, type ImportFormDeps, type ImportedForm } from './import-form.js';
export {
  FORM_FILE,
  FormFileError,
  MAX_FORM_DOCUMENTS,
  MAX_FORM_RECIPIENTS,
  MAX_FORM_TAGS,
  parseFormFile,
  type FormFile,
  type FormFileDocument,
} from './form-file.js';
export { formTagValues, type FormTagValues } from './form-tags.js';
export { formView } from './form-view.js';
export { formTemplateKey, formsFolder } from './form-storage.js';
export {
  readFormTemplates,
  type FormTemplate,
  type TemplateCheckOptions,
} from './form-templates.js';
export {
  FORM_FILE_TAG_TYPES,
  FORM_TAG_TYPES,
  MAX_CHOICES,
  QUESTION_KINDS,
  type QuestionKind,
  type FormRecord,
  type FormTagType,
  type FormView,
  type StoredFormDocument,
  type TagDefinition,
} from './form-types.js';
export { FormSubmitBodySchema, SUBMIT_STATES, type FormSubmitBody } from './submit-body.js';
export {
  submitForm,
  submitFormRecord,
  valueProblems,
  type ContractRecipient,
  type FormContract,
  type FormSubmitted,
  type SubmitFormDeps,
  type SubmitFormOptions,
  type SubmittedForm,
} from './submit-form.js';
export { setFormSwitch, type FormSwitch } from './form-switches.js';
