export { createLogger, silentLogger, LOG_FORMATS, type LogFormat, type Logger } from './logger.js';
