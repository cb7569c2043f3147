import type { DocpipeConfig } from '../../app/config/index.js';
import { createConverter, type Converter } from '../../render/convert/index.js';
import { createLogger, type Logger } from '../../base/log/index.js';

/**
 * The office processes a one-off command (render, check, preview) starts for itself, with a
 * logger that stays quiet at the default level: the command prints its own lines, and the pool's
 * start-up info would only get in their way. `lazy` starts the processes at the first conversion
 * (a command that fails on its input never starts LibreOffice).
 */
export async function commandOffice(
  config: DocpipeConfig,
  { processes = config.office.processes ?? 1, lazy = false } = {},
): Promise<{ converter: Converter; logger: Logger }> {
  const logger = createLogger(
    config.logLevel === 'info' ? 'warn' : config.logLevel,
    'docpipe',
    config.logFormat,
  );
  const converter = await createConverter(
    config.converter,
    { ...config.office, processes },
    logger,
    lazy,
  );
  return { converter, logger };
}
