import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

export function registerMessageTemplates(program: Command): void {
  const templates = program
    .command('message-templates')
    .description("add and list a company's message templates (invitations, by messageTemplateId)")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe message-templates add --company acme welcome.json\n' +
        '  docpipe message-templates list --company acme\n' +
        '\nA template file is {"id"?, "name"?, "subject", "body"}; subject and body may hold the\n' +
        'placeholders docs/companies.md lists, such as {{recipient.name}} and {{signingUrl}}; any\n' +
        'other is refused with its line and column.\n' +
        RECORDS_HELP,
    );

  templates
    .command('add')
    .description('add the message template a JSON file describes, its placeholders checked')
    .requiredOption('--company <id>', 'the company')
    .argument('<file.json>', 'the template: {"id"?, "name"?, "subject", "body"}')
    .option('--json', 'print the template {id, company, name, subject, body, createdAt} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (file: string, flags: { company: string; json?: boolean }) =>
      (await import('../actions/message-templates.js')).addMessageTemplate(file, flags),
    );

  templates
    .command('list')
    .description("a company's message templates: id, created, name, subject")
    .requiredOption('--company <id>', 'the company')
    .option('--json', 'print the list (with each subject and body) as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company: string; json?: boolean }) =>
      (await import('../actions/message-templates.js')).listMessageTemplates(flags),
    );
}
