import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import libre from 'libreoffice-convert';
import { DocpipeError } from '../errors/index.js';
import { projectRoot } from '../pool/index.js';
import type { ConvertRequest, Converter } from './converter.js';
import { canIsolateNetwork } from './office-process.js';
import { hardenedRegistry } from './office-profile.js';

const convertWithOptions = promisify(libre.convertWithOptions) as (
  document: Buffer,
  format: string,
  filter: string | undefined,
  options: Record<string, unknown>,
) => Promise<Buffer>;

/**
 * libreoffice-convert behind the Converter interface: a cold soffice per document (about 1 s
 * each here), hardened like the pool through workers/soffice-hardened.sh. Kept for comparison in
 * benchmarks and as a fallback; no PDF/A.
 */
export class LibreOfficeConvertEngine implements Converter {
  readonly name = 'libreoffice-convert';

  private constructor(
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {}

  static async start(
    options: { conversionTimeoutMs?: number } = {},
  ): Promise<LibreOfficeConvertEngine> {
    const dir = await mkdtemp(join(tmpdir(), 'docpipe-lo-convert-'));
    const xcu = join(dir, 'registrymodifications.xcu');
    await writeFile(xcu, hardenedRegistry());
    const env = {
      ...process.env,
      DOCPIPE_HARDENED_XCU: xcu,
      DOCPIPE_NETNS: (await canIsolateNetwork()) ? '1' : '0',
    };
    return new LibreOfficeConvertEngine(dir, env, options.conversionTimeoutMs ?? 60_000);
  }

  async convert(request: ConvertRequest): Promise<Buffer> {
    let pdf: Buffer;
    try {
      pdf = await convertWithOptions(Buffer.from(request.docx), '.pdf', 'writer_pdf_Export', {
        sofficeBinaryPaths: [join(projectRoot(), 'workers', 'soffice-hardened.sh')],
        execOptions: { env: this.env, timeout: this.timeoutMs, killSignal: 'SIGKILL' },
        tmpOptions: { tmpdir: this.dir },
        fileName: 'document.docx',
      });
    } catch (err) {
      throw new DocpipeError(
        'document-conversion-failed',
        [
          {
            field: request.field,
            message: `libreoffice-convert: ${(err as Error).message.slice(0, 300)}`,
          },
        ],
        { cause: err },
      );
    }
    if (pdf.length === 0 || pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw new DocpipeError('document-conversion-failed', [
        { field: request.field, message: 'libreoffice-convert wrote no PDF' },
      ]);
    }
    return pdf;
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
