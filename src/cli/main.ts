#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/index.js';
import { projectRoot } from '../pool/index.js';
import { registerCheck } from './commands/check.js';
import { registerFields } from './commands/fields.js';
import { registerRender } from './commands/render.js';
import { registerSniff } from './commands/sniff.js';
import { EXIT, UsageError } from './exit-codes.js';

const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
  version: string;
};

const program = new Command('docpipe')
  .description('docpipe: sniff documents, fill .docx templates and inspect their fields')
  .version(version)
  .showHelpAfterError()
  .exitOverride()
  .addHelpText(
    'after',
    '\nExit status: 0 ok, 1 a document failed with a typed failure, 2 bad usage.\nRun "docpipe <command> --help" for each command.',
  );

registerSniff(program);
registerFields(program);
registerRender(program);
registerCheck(program);
for (const command of program.commands) command.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version end with code 0; every other commander error is bad usage.
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof UsageError || err instanceof ConfigError) {
    process.stderr.write(`docpipe: ${err.message}\n`);
    process.exitCode = EXIT.usage;
  } else {
    throw err;
  }
}
