export { checkKey, type Storage, type StoredObject } from './storage.js';
export { LocalStorage } from './local-storage.js';
export { signUrl, verifySignedUrl, type SignedUrlCheck } from './signed-url.js';
export {
  STORAGE_KEY_FOLDERS,
  documentMetaKey,
  jobInputKey,
  parseStorageKey,
  parseStoredDocumentKey,
  renderKey,
  renderMarkerKey,
  renderPlacesKey,
  storedDocumentKey,
  type StorageKey,
  type StorageKeyKind,
  type StoredDocumentRef,
  type StoredDocumentType,
} from './storage-keys.js';
export {
  STORED_NAME_MAX_CHARS,
  parseStoredDocumentUrl,
  storedDocumentUrl,
  type StoredDocumentUrl,
} from './stored-document.js';
export {
  readDocumentMeta,
  writeDocumentMeta,
  writeDocumentMetaOnce,
  type DocumentMeta,
} from './document-meta.js';
export {
  readRenderSidecar,
  sidecarNeeded,
  writeRenderSidecar,
  type RenderSidecar,
  type ValueNotDrawn,
} from './render-sidecar.js';
export { readObjectStream, type ByteRange } from './object-stream.js';
export { objectLocation } from './object-location.js';
export {
  MAX_PRESIGNED_SECONDS,
  S3Storage,
  type PresignedGetOptions,
  type S3StorageOptions,
} from './s3-storage.js';
export {
  StorageUnavailableError,
  isStorageUnavailableError,
  type StorageUnavailableReason,
  type StoreLocation,
} from './storage-unavailable.js';
