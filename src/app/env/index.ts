export { ConfigError } from './config-error.js';
export { envNumbers, type EnvNumbers } from './env-numbers.js';
export { inputLimitsFrom, loadInputLimits } from './input-limits.js';
export { databaseSettingFrom, type DatabaseSetting } from './database-setting.js';
