import { pino, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';

/** What the engine needs of a logger; pino's loggers fit it. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** How log lines look: JSON for machines, pretty for people, or pretty only on a terminal. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Logs on stderr, so that stdout stays for a command's own output: JSON lines for log shippers,
 * readable lines (pino-pretty, written synchronously so nothing is lost at exit) for a person at
 * a terminal. `auto` decides by whether stderr is a terminal.
 */
export function createLogger(
  level = 'info',
  name = 'docpipe',
  format: LogFormat = 'json',
): PinoLogger {
  const readable = format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true);
  if (!readable) return pino({ name, level }, pino.destination(2));
  return pino(
    { name, level },
    pretty({
      destination: 2,
      sync: true,
      colorize: process.stderr.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,name',
    }),
  );
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
