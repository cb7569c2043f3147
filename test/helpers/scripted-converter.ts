import type { ConvertRequest, Converter } from '../../src/render/convert/index.js';

/**
 * A converter whose every answer is scripted: `script(n, request)` for the n-th call (from 1).
 * It stands in for LibreOffice where a test is about what the queue decides, not the machine's
 * timing.
 */
export class ScriptedConverter implements Converter {
  readonly name = 'scripted';
  readonly requests: ConvertRequest[] = [];
  constructor(private readonly script: (n: number, request: ConvertRequest) => Promise<Buffer>) {}
  convert(request: ConvertRequest): Promise<Buffer> {
    this.requests.push(request);
    return this.script(this.requests.length, request);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
