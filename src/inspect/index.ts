export { templateFields, type FieldsOptions } from './fields.js';
