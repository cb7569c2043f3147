import { pino } from 'pino';

/** What the engine needs of a logger; pino's loggers fit it. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** JSON lines on stderr, so that stdout stays for a command's own output. */
export function createLogger(level = 'info', name = 'docpipe'): Logger {
  return pino({ name, level }, pino.destination(2));
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
