export { checkKey, type Storage, type StoredObject } from './storage.js';
export { LocalStorage } from './local-storage.js';
export { signUrl, verifySignedUrl, type SignedUrlCheck } from './signed-url.js';
