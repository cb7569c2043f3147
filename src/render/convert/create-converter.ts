import type { Logger } from '../../base/log/index.js';
import type { OfficePoolOptions } from './convert-options.js';
import type { Converter } from './converter.js';
import { LazyConverter } from './lazy-converter.js';
import { PerCallConverter } from './per-call-converter.js';
import { OfficePool } from './office-pool.js';

export type ConverterName = 'office-pool' | 'libreoffice-convert';

/** The configured converter; `lazy` defers starting LibreOffice to the first conversion. */
export async function createConverter(
  name: ConverterName,
  office: OfficePoolOptions,
  logger: Logger,
  lazy = false,
): Promise<Converter> {
  const start = (): Promise<Converter> =>
    name === 'libreoffice-convert'
      ? PerCallConverter.start(office)
      : OfficePool.start(office, logger);
  return lazy ? new LazyConverter(name, start) : start();
}
