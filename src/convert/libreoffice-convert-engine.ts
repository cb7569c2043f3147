import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import libre from 'libreoffice-convert';
import { DocpipeError } from '../errors/index.js';
import { projectRoot } from '../paths/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, type OfficePoolOptions } from './convert-options.js';
import type { ConvertRequest, Converter } from './converter.js';
import { canIsolateNetwork } from './office-process.js';
import { hardenedRegistry, officeEnvironment } from './office-profile.js';

const convertWithOptions = promisify(libre.convertWithOptions) as (
  document: Buffer,
  format: string,
  filter: string | undefined,
  options: Record<string, unknown>,
) => Promise<Buffer>;

const PDF_MAGIC = Buffer.from('%PDF-');
/** The soffice that workers/soffice-hardened.sh runs. */
const SOFFICE = '/usr/lib/libreoffice/program/soffice';
/**
 * The wrapper kills soffice at the deadline itself (with its process group, which
 * libreoffice-convert's own timeout would not reach); this later one only catches a wrapper that
 * hangs after that.
 */
const BACKSTOP_MS = 10_000;

/**
 * libreoffice-convert behind the Converter interface: a cold soffice per document (about 1 s
 * each here), hardened like the pool and supervised by workers/soffice-hardened.sh, which also
 * decides success by the file soffice wrote. Kept for comparison in benchmarks and as a fallback;
 * no PDF/A.
 */
export class LibreOfficeConvertEngine implements Converter {
  readonly name = 'libreoffice-convert';

  private constructor(
    /** Holds the hardened registry and, per conversion, libreoffice-convert's folders. */
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {}

  /** Uses `conversionTimeoutMs`, `network` and `workDir` of the office options. */
  static async start(options: OfficePoolOptions = {}): Promise<LibreOfficeConvertEngine> {
    const timeoutMs =
      options.conversionTimeoutMs ?? DEFAULT_OFFICE_POOL_OPTIONS.conversionTimeoutMs;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
      throw new Error(`conversionTimeoutMs must be a positive integer (got ${timeoutMs})`);
    // Else every document would fail as if it were damaged.
    await access(SOFFICE, constants.X_OK).catch(() => {
      throw new Error(`libreoffice-convert needs LibreOffice: ${SOFFICE} is missing`);
    });
    const isolated = await networkNamespace(options.network ?? 'auto');
    const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'docpipe-lo-convert-'));
    const xcu = join(dir, 'registrymodifications.xcu');
    await writeFile(xcu, hardenedRegistry());
    // Only what soffice needs, as for the pool's processes: docpipe's own environment (storage
    // keys, Redis URL) is none of its business. The wrapper sets HOME and TMPDIR per conversion.
    const env = {
      ...officeEnvironment(dir),
      DOCPIPE_HARDENED_XCU: xcu,
      DOCPIPE_ENGINE_DIR: dir,
      DOCPIPE_CONVERT_TIMEOUT: String(timeoutMs / 1000),
      DOCPIPE_NETNS: isolated ? '1' : '0',
    };
    return new LibreOfficeConvertEngine(dir, env, timeoutMs);
  }

  async convert(request: ConvertRequest): Promise<Buffer> {
    let pdf: Buffer;
    try {
      pdf = await convertWithOptions(Buffer.from(request.docx), 'pdf', 'writer_pdf_Export', {
        sofficeBinaryPaths: [join(projectRoot(), 'workers', 'soffice-hardened.sh')],
        execOptions: {
          env: this.env,
          timeout: this.timeoutMs + BACKSTOP_MS,
          killSignal: 'SIGKILL',
        },
        tmpOptions: { tmpdir: this.dir },
        // The wrapper has checked for the file; no need to wait for it.
        asyncOptions: { times: 1 },
        fileName: 'document.docx',
      });
    } catch (err) {
      throw this.failed(request.field, err as Error);
    }
    if (!pdf.subarray(0, 5).equals(PDF_MAGIC)) {
      throw new DocpipeError('document-conversion-failed', [
        {
          field: request.field,
          message:
            'LibreOffice wrote something that is not a PDF; check that the document opens in Word',
        },
      ]);
    }
    return pdf;
  }

  /** The engine's folder: the hardened registry and the folders of conversions under way. */
  get workDir(): string {
    return this.dir;
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private failed(field: string, err: Error & { killed?: boolean }): DocpipeError {
    // The wrapper's words come through libreoffice-convert's "Error calling soffice: <stderr>".
    const said = err.message
      .replace(/^Error calling soffice:\s*/, '')
      .trim()
      .replace(/\s*\n\s*/g, '; ');
    const message =
      err.killed || /did not finish within/.test(said)
        ? `the conversion did not finish within ${this.timeoutMs} ms and was stopped; ` +
          'a document this slow needs a larger DOCPIPE_CONVERSION_TIMEOUT_MS'
        : `LibreOffice could not convert the document (damaged, encrypted or not a Word document): ${said.slice(0, 300)}`;
    return new DocpipeError('document-conversion-failed', [{ field, message }], { cause: err });
  }
}

/** Whether to convert in a network namespace, as the pool decides for its processes. */
async function networkNamespace(network: string): Promise<boolean> {
  if (network === 'profile') return false;
  const can = await canIsolateNetwork();
  if (!can && network === 'namespace')
    throw new Error(
      'network: namespace was asked for, but this host cannot create network namespaces (unshare --net)',
    );
  return can;
}
