import { EXIT } from '../exit-codes.js';
import { printJson } from '../print-json.js';

/** A flag refused before the database is looked for, named as it was typed. */
export interface FlagProblem {
  field: string;
  message: string;
}

/**
 * Prints every refused flag at once, by its name (as withRecordsDatabase prints a refused
 * record: `{error: 'validation-failed', details}` with --json), and sets exit status 2: a typo is
 * named before a missing database.
 */
export function refuseFlags(what: string, problems: readonly FlagProblem[], json?: boolean): void {
  if (json) printJson({ error: 'validation-failed', details: problems });
  process.stderr.write(
    `docpipe: the ${what} is refused:\n` +
      problems.map((p) => `  ${p.field}: ${p.message}\n`).join(''),
  );
  process.exitCode = EXIT.usage;
}
