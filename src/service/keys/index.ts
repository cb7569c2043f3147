export { KeyStore, type KeyStoreOptions } from './key-store.js';
export { copyRedisKeys, type RedisKeysCopy } from './copy-redis-keys.js';
export {
  DEFAULT_VERIFIED_KEY_TTL_MS,
  VerifiedKeyCache,
  type VerifiedKeyCacheOptions,
} from './verified-key-cache.js';
export type {
  ApiKeyRecord,
  CheckedKey,
  CreatedKey,
  ExpiringKeyVerifier,
  KeyIdentity,
  KeyRefusal,
  KeyVerification,
  KeyVerifier,
  RevokeOutcome,
} from './key-record.js';
export {
  KEY_ENVIRONMENTS,
  KEY_TOKEN_PREFIX,
  hashToken,
  isKeyId,
  keyTokenPrefix,
  newToken,
  tokenEnvironment,
  tokenId,
  type KeyEnvironment,
} from './key-token.js';
export { newKeyProblems } from './key-fields.js';
export {
  DEFAULT_KEY_USE_EVERY_MS,
  KeyUseRecorder,
  recordingKeyUse,
  type KeyUseRecorderOptions,
} from './key-use-recorder.js';
export { sharedSigningSecret } from './signing-secret.js';
