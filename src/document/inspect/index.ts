export { templateFields, type FieldsOptions } from './fields.js';
export { documentText } from './document-text.js';
