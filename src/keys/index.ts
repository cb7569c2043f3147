export { KeyStore, type KeyStoreOptions } from './key-store.js';
export type {
  ApiKeyRecord,
  CreatedKey,
  KeyIdentity,
  KeyRefusal,
  KeyVerification,
  KeyVerifier,
  RevokeOutcome,
} from './key-record.js';
export { KEY_TOKEN_PREFIX, hashToken, isKeyId, newToken, tokenId } from './key-token.js';
export { isCompanyId, newKeyProblems } from './key-fields.js';
export { parseDuration } from './duration.js';
