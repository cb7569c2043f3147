export { loadConfig, ConfigError, type DocpipeConfig } from './config.js';
