import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../../app/env/index.js';
import { InputError } from '../../base/files/index.js';
import { projectRoot } from '../../base/paths/index.js';
import { registerCheck } from './commands/check.js';
import { registerLint } from './commands/lint.js';
import { registerEnqueue } from './commands/enqueue.js';
import { registerRerender } from './commands/rerender.js';
import { registerKeys } from './commands/keys.js';
import { registerStorage } from './commands/storage.js';
import { registerDb } from './commands/db.js';
import { registerPostgres } from './commands/postgres.js';
import { registerCompanies } from './commands/companies.js';
import { registerUsers } from './commands/users.js';
import { registerFolders } from './commands/folders.js';
import { registerPresets } from './commands/presets.js';
import { registerMessageTemplates } from './commands/message-templates.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerForms } from './commands/forms.js';
import { registerPartners } from './commands/partners.js';
import { registerCredits } from './commands/credits.js';
import { registerStart } from './commands/start.js';
import { registerFields } from './commands/fields.js';
import { registerRender } from './commands/render.js';
import { registerPreview } from './commands/preview.js';
import { registerSniff } from './commands/sniff.js';
import { EXIT, outageExit } from './exit-codes.js';
import { reportTopLevelError } from './top-level-error.js';

/**
 * The docpipe command with every command declared. A fresh one for each run: commander keeps
 * the parsed options on the command objects.
 */
export function docpipeProgram(): Command {
  const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
    version: string;
  };
  const program = new Command('docpipe')
    .description(
      'docpipe: the document pipeline: sniff, fill .docx templates, convert to PDF, run the queue worker',
    )
    .version(version)
    // One line after a usage error, not the whole help (80 lines that push the error away).
    .showHelpAfterError(
      '(run "docpipe --help" for the commands, "docpipe <command> --help" for one)',
    )
    .exitOverride()
    .addHelpText(
      'after',
      '\nExit status: 0 ok, 1 a document failed with a typed failure, 2 bad usage,\n3 the queue or storage is not there (Redis does not answer, no worker runs,\nor the S3 bucket is missing, refuses the credentials or does not answer): try again later,\n70 docpipe failed internally (a bug; DOCPIPE_LOG_LEVEL=debug shows where).\nRun "docpipe <command> --help" for each command.',
    );

  // Every command is declared here with its arguments, options and help; its action imports what
  // it needs only when it runs (./actions, and the action of sniff, fields and lint), so that
  // --help and a template author's sniff, fields and lint start without the queue, HTTP or
  // storage. test/unit/cli-help.test.ts keeps the declarations' imports light.
  registerSniff(program);
  registerFields(program);
  registerRender(program);
  registerCheck(program);
  registerLint(program);
  registerPreview(program);
  registerStart(program);
  registerEnqueue(program);
  registerRerender(program);
  registerKeys(program);
  registerStorage(program);
  registerDb(program);
  registerPostgres(program);
  registerCompanies(program);
  registerUsers(program);
  registerFolders(program);
  registerPresets(program);
  registerMessageTemplates(program);
  registerWebhooks(program);
  registerForms(program);
  registerPartners(program);
  registerCredits(program);
  for (const command of program.commands) {
    command.exitOverride();
    pointToHelp(command, `docpipe ${command.name()}`);
  }
  return program;
}

/** After a usage error, the one command's help to run, for it and each of its subcommands. */
function pointToHelp(command: Command, path: string): void {
  command.showHelpAfterError(`(run "${path} --help" for how to use it)`);
  for (const sub of command.commands) pointToHelp(sub, `${path} ${sub.name()}`);
}

/**
 * Runs one docpipe command line (`argv` as process.argv has it: node, the script, then the
 * arguments) to its end and sets process.exitCode, mapping the errors no command handled to
 * their exit status. Apart from main.ts so that tests can run a command in their own process.
 */
export async function runDocpipe(argv: readonly string[]): Promise<void> {
  try {
    await docpipeProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end with code 0; every other commander error is bad usage.
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else if (err instanceof InputError || err instanceof ConfigError) {
      process.stderr.write(`docpipe: ${err.message}\n`);
      process.exitCode = EXIT.usage;
    } else if (outageExit(err) !== undefined) {
      process.stderr.write(`docpipe: ${(err as Error).message}\n`);
      process.exitCode = outageExit(err);
    } else {
      process.exitCode = reportTopLevelError(err, { argv, env: process.env });
    }
  }
}
