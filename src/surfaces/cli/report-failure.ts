import { detailText, isDocpipeError, type DocpipeError } from '../../base/errors/index.js';
import { EXIT } from './exit-codes.js';
import { printJson } from './print-json.js';

/**
 * Runs a command's work on one document; a typed failure is printed (as `{error, details}` with
 * --json, else readably on stderr) and sets exit status 1. Anything else is a bug and propagates
 * to the top level (top-level-error.ts).
 */
export async function runDocumentCommand(
  json: boolean | undefined,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!isDocpipeError(err)) throw err;
    printFailure(err, json);
    process.exitCode = EXIT.failed;
  }
}

/** A typed failure as `{error, details}` on stdout with --json, else readably on stderr. */
export function printFailure(err: DocpipeError, json: boolean | undefined): void {
  if (json) {
    printJson(err.toFailure());
    return;
  }
  process.stderr.write(`${err.slug}\n`);
  // A failure of the file as a whole (a damaged part) has no field to name.
  for (const d of err.details) process.stderr.write(`  ${detailText(d)}\n`);
  // fill names a broken template's problems under the field `template`.
  if (err.slug === 'document-production-failed' && err.details.some((d) => d.field === 'template'))
    process.stderr.write('  run "docpipe lint <template>" to see each problem with its fix\n');
}
