export { createLogger, silentLogger, type Logger } from './logger.js';
