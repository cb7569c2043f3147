export {
  loadConfig,
  ConfigError,
  prepareThreadsBeside,
  workerConcurrency,
  type DocpipeConfig,
} from './config.js';
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  DEFAULT_RATE_LIMIT_V2,
  DEFAULT_SIGNED_URL_TTL_S,
  SMALL_BODY_LIMIT_BYTES,
  defaultBodyLimit,
  publicUrlOf,
  type HttpConfig,
} from './http-config.js';
export {
  DEFAULT_HTTP_CONNECTION_LIMITS,
  type HttpConnectionLimits,
} from './http-connections-config.js';
export { STORAGE_KINDS, storageConfigFrom, type StorageConfig } from './storage-config.js';
export { DEFAULT_CREDITS, creditsConfigFrom, type CreditsConfig } from './credits-config.js';
export {
  DEFAULT_RETENTION,
  retentionConfigFrom,
  type RetentionConfig,
} from './retention-config.js';
export {
  DEFAULT_TEST_DATA_RETENTION,
  ENVIRONMENTS,
  ENVIRONMENT_VARIABLE,
  TEST_DATA_RETENTION_VARIABLE,
  environmentConfigFrom,
  type Environment,
  type EnvironmentConfig,
} from './environment-config.js';
export { DEFAULT_FAIRNESS, fairnessConfigFrom, type FairnessConfig } from './fairness-config.js';
export { CPR_KEY_BYTES, CPR_KEY_VARIABLE, parseCprKey } from './cpr-config.js';
export { CPR_KEY_FILE, cprKeyPath, ensureCprKeyFile, readCprKeyFile } from './cpr-key-file.js';
export { EID_BROKERS_FILE_VARIABLE, EID_VARIABLES, eidConfigFrom } from './eid-config.js';
export {
  SEAL_P12_PASSWORD_VARIABLE,
  SEAL_P12_VARIABLE,
  SELF_SIGNED_COMMON_NAME,
  SELF_SIGNED_P12_FILE,
  SELF_SIGNED_PASSWORD_FILE,
  TSA_URL_VARIABLE,
  ensureSelfSignedP12,
  loadSealingConfig,
  type SealingConfig,
} from './sealing-config.js';
export { DELIVERY_VARIABLES, deliveryConfigFrom, loadDeliveryConfig } from './delivery-config.js';
export {
  WEBHOOK_VARIABLES,
  loadWebhookConfig,
  webhookConfigFrom,
  type WebhookConfig,
} from './webhook-config.js';
export {
  DEFAULT_DASHBOARD,
  dashboardConfigFrom,
  type DashboardConfig,
} from './dashboard-config.js';
