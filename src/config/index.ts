export { loadConfig, ConfigError, engineThreadsBeside, type DocpipeConfig } from './config.js';
