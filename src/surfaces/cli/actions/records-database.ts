import type { Kysely } from 'kysely';
import {
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
} from '../../../service/companies/index.js';
import { migrateDatabase, type Database } from '../../../service/db/index.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { withDatabase } from './with-database.js';

/** How a command names the fields of what it was given, for its refusals. */
export interface RecordCommand {
  json: boolean | undefined;
  /** The flag or argument a person typed for each field the service names (`email`: `--email`). */
  fields?: Record<string, string>;
  /** The file the record came from: its problems are named `<file>: <path>`. */
  file?: string;
}

/**
 * Runs a records command on the database of DATABASE_URL or of a running `docpipe start`, after
 * applying the migrations it lacks (as `docpipe db migrate`: a new database needs no step of its
 * own before its first company). The service's refusals become messages and exit statuses:
 * exists or not found 1, a refused field or file 2, a newer schema 1, no answer 3.
 */
export async function withRecordsDatabase(
  command: RecordCommand,
  work: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await withDatabase(async (db) => {
    try {
      const migrated = await migrateDatabase(db);
      if (migrated.applied.length > 0)
        process.stderr.write(`docpipe: applied migrations ${migrated.applied.join(', ')}\n`);
      await work(db);
    } catch (err) {
      const exit = report(err, command);
      // An outage or a failed migration: withDatabase's to tell.
      if (exit === undefined) throw err;
      process.exitCode = exit;
    }
  });
}

/** Prints a refusal and gives its exit status; undefined for an error that is not one. */
function report(err: unknown, command: RecordCommand): number | undefined {
  if (err instanceof RecordInvalidError) {
    const details = err.problems.map((p) => ({
      field: fieldName(p.path, command),
      message: p.message,
    }));
    if (command.json) printJson({ error: 'validation-failed', details });
    const where = command.file ? `${command.file}: ` : '';
    process.stderr.write(
      `docpipe: ${where}the ${err.kind} is refused:\n` +
        details.map((d) => `  ${d.field}: ${d.message}\n`).join(''),
    );
    return EXIT.usage;
  }
  if (err instanceof RecordExistsError || err instanceof RecordNotFoundError) {
    const exists = err instanceof RecordExistsError;
    const slug = `${err.kind.replace(/ /g, '-')}-${exists ? 'exists' : 'not-found'}`;
    if (command.json) printJson({ error: slug, message: err.message });
    process.stderr.write(`docpipe: ${err.message}${hint(err)}\n`);
    return EXIT.failed;
  }
  return undefined;
}

function fieldName(path: string, command: RecordCommand): string {
  return command.fields?.[path] ?? path;
}

/** What to do next, after the service's sentence. */
function hint(err: RecordExistsError | RecordNotFoundError): string {
  if (err.kind === 'company')
    return err instanceof RecordNotFoundError
      ? ': "docpipe companies list" shows the companies, "docpipe companies create" makes one'
      : ' ("docpipe companies list" shows it)';
  const list: Record<string, string> = {
    user: 'users',
    folder: 'folders',
    preset: 'presets',
    'message template': 'message-templates',
  };
  return ` ("docpipe ${list[err.kind]} list --company ${err.company}" shows them)`;
}
