import type { ConvertRequest, Converter } from './converter.js';

/**
 * Starts the real converter on the first conversion, so that commands that only pass PDFs
 * through never start LibreOffice.
 */
export class LazyConverter implements Converter {
  private started?: Promise<Converter>;

  constructor(
    readonly name: string,
    private readonly start: () => Promise<Converter>,
  ) {}

  async convert(request: ConvertRequest): Promise<Buffer> {
    this.started ??= this.start();
    return (await this.started).convert(request);
  }

  async close(): Promise<void> {
    if (this.started) await (await this.started).close();
  }
}
