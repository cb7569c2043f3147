export type { DocumentLibrary, LibraryDocument, LibraryVersion } from './library.js';
export { FolderLibrary } from './folder-library.js';
