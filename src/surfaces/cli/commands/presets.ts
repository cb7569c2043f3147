import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

export function registerPresets(program: Command): void {
  const presets = program
    .command('presets')
    .description("add and list a company's presets (named sets of case settings, by presetId)")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe presets add --company acme lease-preset.json\n' +
        '  docpipe presets list --company acme\n' +
        '\nA preset file is {"id"?, "name", "settings"}: settings as POST /v3/api/cases takes them\n' +
        '(spec 2.2); any other member is refused with its path. See docs/companies.md.\n' +
        RECORDS_HELP,
    );

  presets
    .command('add')
    .description('add the preset a JSON file describes, checked against the v3 case settings')
    .requiredOption('--company <id>', 'the company')
    .argument('<file.json>', 'the preset: {"id"?, "name", "settings": {...}}')
    .option('--json', 'print the preset {id, company, name, settings, createdAt} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (file: string, flags: { company: string; json?: boolean }) =>
      (await import('../actions/presets.js')).addPreset(file, flags),
    );

  presets
    .command('list')
    .description("a company's presets: id, created, name")
    .requiredOption('--company <id>', 'the company')
    .option('--json', "print the list (with each preset's settings) as JSON")
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; json?: boolean }) =>
      (await import('../actions/presets.js')).listPresets(flags),
    );
}
