import { PDFDocument } from 'pdf-lib';
import type { ConvertRequest, Converter } from '../../src/render/convert/index.js';

/** What a scripted conversion answers: a one-page A4 PDF that says "converted". */
export async function convertedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('converted');
  return Buffer.from(await doc.save());
}

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
