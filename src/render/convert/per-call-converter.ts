import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import libre from 'libreoffice-convert';
import { DocpipeError } from '../../base/errors/index.js';
import { projectRoot } from '../../base/paths/index.js';
import { startsAsPdf } from '../../formats/sniff/index.js';
import {
  fillLibreOfficeConvertOptions,
  type FilledLibreOfficeConvertOptions,
  type OfficePoolOptions,
} from './convert-options.js';
import type { ConvertRequest, Converter } from './converter.js';
import { usesNetworkNamespace } from './network-isolation.js';
import { hardenedRegistry, officeEnvironment } from './office-profile.js';
import { TurnTimeout, Turns } from './turns.js';

const convertWithOptions: (
  document: Buffer,
  format: string,
  filter: string | undefined,
  options: Record<string, unknown>,
) => Promise<Buffer> = promisify(libre.convertWithOptions);

/** The wrapper libreoffice-convert runs instead of soffice: isolation, deadline, the hardened profile. */
const HARDENED_SOFFICE = join(projectRoot(), 'workers', 'soffice-hardened.sh');

/** The soffice that workers/soffice-hardened.sh runs. */
const SOFFICE = '/usr/lib/libreoffice/program/soffice';
/**
 * The wrapper kills soffice at the deadline itself (with its process group, which
 * libreoffice-convert's own timeout would not reach); this later one only catches a wrapper that
 * hangs after that.
 */
const BACKSTOP_MS = 10_000;

/**
 * libreoffice-convert behind the Converter interface: a cold soffice per document (far slower
 * than the warm pool: docs/decisions.md#libreoffice-convert), hardened like the pool and
 * supervised by workers/soffice-hardened.sh, which also decides success by the file soffice
 * wrote. At most `processes` run at once, as the pool runs as many office processes. Kept for
 * comparison in benchmarks and as a fallback; no PDF/A.
 */
export class PerCallConverter implements Converter {
  readonly name = 'libreoffice-convert';

  private constructor(
    /** Holds the hardened registry and, per conversion, libreoffice-convert's folders. */
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly options: FilledLibreOfficeConvertOptions,
    private readonly turns: Turns,
  ) {}

  /**
   * Uses `processes`, `conversionTimeoutMs`, `queueTimeoutMs`, `network` and `workDir` of the
   * office options (LibreOfficeConvertOptions).
   */
  static async start(options: OfficePoolOptions = {}): Promise<PerCallConverter> {
    const filled = fillLibreOfficeConvertOptions(options, tmpdir());
    // Else every document would fail as if it were damaged.
    await access(SOFFICE, constants.X_OK).catch(() => {
      throw new Error(`libreoffice-convert needs LibreOffice: ${SOFFICE} is missing`);
    });
    // libreoffice-convert falls back to the system's soffice when the wrapper it is given is not
    // there: conversions would still succeed, without the hardening (no macro, no fetch).
    await access(HARDENED_SOFFICE, constants.X_OK).catch(() => {
      throw new Error(
        `libreoffice-convert needs docpipe's hardened wrapper: ${HARDENED_SOFFICE} is missing or not executable (reinstall docpipe, or copy workers/ beside dist/)`,
      );
    });
    const isolated = await usesNetworkNamespace(filled.network);
    const dir = await mkdtemp(join(filled.workDir, 'docpipe-lo-convert-'));
    const xcu = join(dir, 'registrymodifications.xcu');
    await writeFile(xcu, hardenedRegistry());
    // Only what soffice needs, as for the pool's processes: docpipe's own environment (storage
    // keys, Redis URL) is none of its business. The wrapper sets HOME and TMPDIR per conversion.
    const env = {
      ...officeEnvironment(dir),
      DOCPIPE_HARDENED_XCU: xcu,
      DOCPIPE_CONVERT_DIR: dir,
      DOCPIPE_SOFFICE: SOFFICE,
      DOCPIPE_CONVERT_TIMEOUT: String(filled.conversionTimeoutMs / 1000),
      DOCPIPE_NETNS: isolated ? '1' : '0',
    };
    const turns = new Turns(filled.processes, filled.queueTimeoutMs);
    return new PerCallConverter(dir, env, filled, turns);
  }

  async convert(request: ConvertRequest): Promise<Buffer> {
    try {
      return await this.turns.run(() => this.convertNow(request));
    } catch (err) {
      if (!(err instanceof TurnTimeout)) throw err;
      // As the pool's: a busy converter is worth asking again later.
      const message = `the converter is busy: no soffice run was free within ${err.waitMs} ms`;
      throw new DocpipeError('document-conversion-failed', [{ field: request.field, message }], {
        cause: err,
        retryable: true,
      });
    }
  }

  private async convertNow(request: ConvertRequest): Promise<Buffer> {
    let pdf: Buffer;
    try {
      pdf = await convertWithOptions(Buffer.from(request.docx), 'pdf', 'writer_pdf_Export', {
        sofficeBinaryPaths: [HARDENED_SOFFICE],
        execOptions: {
          env: this.env,
          timeout: this.options.conversionTimeoutMs + BACKSTOP_MS,
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
    if (!startsAsPdf(pdf)) {
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

  /** The converter's folder: the hardened registry and the folders of conversions under way. */
  get workDir(): string {
    return this.dir;
  }

  async close(): Promise<void> {
    this.turns.close('the libreoffice-convert converter is closing');
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
        ? `the conversion did not finish within ${this.options.conversionTimeoutMs} ms and was stopped; ` +
          'a document this slow needs a larger DOCPIPE_CONVERSION_TIMEOUT_MS'
        : `LibreOffice could not convert the document (damaged, encrypted or not a Word document): ${said.slice(0, 300)}`;
    return new DocpipeError('document-conversion-failed', [{ field, message }], { cause: err });
  }
}
