import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

export function registerFolders(program: Command): void {
  const folders = program
    .command('folders')
    .description("add and list a company's folders (where its cases are filed)")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe folders add --company acme Leases\n' +
        '  docpipe folders list --company acme\n' +
        RECORDS_HELP,
    );

  folders
    .command('add')
    .description('add a folder; its id is made for it, and its name is unique in the company')
    .requiredOption('--company <id>', 'the company')
    .argument('<name>', "the folder's name")
    .option('--json', 'print the folder {id, company, name, isDefault, createdAt} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (name: string, flags: { company: string; json?: boolean }) =>
      (await import('../actions/folders.js')).addFolder(name, flags),
    );

  folders
    .command('list')
    .description("a company's folders, the default first: id, default, created, name")
    .requiredOption('--company <id>', 'the company')
    .option('--json', 'print the list as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; json?: boolean }) =>
      (await import('../actions/folders.js')).listFolders(flags),
    );
}
