import { execFile, type ExecFileException } from 'node:child_process';
import { DocpipeError } from '../../base/errors/index.js';

/** The poppler-utils programs docpipe runs (scripts/setup.sh installs them). */
export type PopplerTool = 'pdftoppm' | 'pdftotext' | 'pdfinfo';

/**
 * A poppler program is not installed or not on PATH. A DocpipeError (every failure is one) under
 * `document-production-failed`, since no page can be drawn or read without it; but it is the
 * machine that is wrong, not the document, so callers that run many documents stop at the first
 * one (`isPopplerMissingError`) and say so once rather than failing every document alike.
 */
export class PopplerMissingError extends DocpipeError {
  readonly tool: PopplerTool;

  constructor(tool: PopplerTool) {
    super('document-production-failed', [
      {
        field: tool,
        message: `${tool} (poppler-utils) is not installed or not on PATH: run scripts/setup.sh`,
      },
    ]);
    this.tool = tool;
  }
}

export function isPopplerMissingError(err: unknown): err is PopplerMissingError {
  return err instanceof PopplerMissingError;
}

export interface PopplerRun {
  /** Kills the program past this time (a PDF that makes poppler spin). */
  timeoutMs: number;
  /** Stops reading and kills the program past this much standard output. */
  maxOutputBytes: number;
  /** Path of the document in the request, named by a failure. */
  field: string;
}

/**
 * Runs a poppler program with a bounded time and a bounded output. A program that is not there is
 * a PopplerMissingError; one that fails, is killed or talks too much is the document's failure
 * (`document-production-failed`) naming the field and saying what happened.
 */
export function runPoppler(tool: PopplerTool, args: string[], run: PopplerRun): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      tool,
      args,
      {
        encoding: 'utf8',
        timeout: run.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: run.maxOutputBytes,
        env: { ...process.env, LC_ALL: 'C.UTF-8' },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        reject(popplerFailure(tool, err, stderr, run));
      },
    );
  });
}

function popplerFailure(
  tool: PopplerTool,
  err: ExecFileException,
  stderr: string,
  run: PopplerRun,
): Error {
  if (err.code === 'ENOENT') return new PopplerMissingError(tool);
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return failed(run.field, `${tool} wrote more than ${run.maxOutputBytes} bytes; stopped`);
  if (err.killed || err.signal)
    return failed(
      run.field,
      `${tool} did not finish within ${run.timeoutMs} ms (${err.signal ?? 'killed'}); stopped`,
    );
  const said = stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
  return failed(run.field, `${tool} could not read the PDF (exit ${String(err.code)}): ${said}`);
}

function failed(field: string, message: string): DocpipeError {
  return new DocpipeError('document-production-failed', [{ field, message }]);
}

/** Throws PopplerMissingError when the tool cannot be run at all: a check before a long run. */
export async function requirePoppler(tool: PopplerTool): Promise<void> {
  await runPoppler(tool, ['-v'], { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, field: tool });
}
