export {
  loadConfig,
  ConfigError,
  engineThreadsBeside,
  workerConcurrency,
  type DocpipeConfig,
} from './config.js';
