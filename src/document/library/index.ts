export type {
  DocumentLibrary,
  DocumentSigner,
  LibraryDocument,
  LibraryVersion,
} from './library.js';
export { FolderLibrary } from './folder-library.js';
export { companyLibrary, visibleDocument, visibleTo } from './company-library.js';
export {
  locateTemplate,
  resolveTemplate,
  type ResolvedTemplate,
  type ResolveTemplateOptions,
  type TemplateLocation,
  type TemplateReference,
  type TemplateSettings,
} from './resolve-template.js';
export {
  currentTemplateFile,
  DOCUMENT_JSON,
  DocumentJsonError,
  LIBRARY_TEMPLATE,
  parseDocumentJson,
  readDocumentJson,
  settingsForTemplate,
  type DocumentFillOptions,
  type DocumentSettings,
} from './document-json.js';
export {
  DocumentJsonSchema,
  FieldDeclarationSchema,
  FIELD_TYPES,
  type DocumentJson,
} from './document-json-schema.js';
