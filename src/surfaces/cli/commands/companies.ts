import type { Command } from 'commander';
import { RECORDS_HELP } from './records-help.js';

export function registerCompanies(program: Command): void {
  const companies = program
    .command('companies')
    .description('create, list, set, disable and enable the companies (tenants) of the service')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe companies create acme --name "Acme A/S" --signing-domain sign.acme.example --language da\n' +
        '  docpipe companies list\n' +
        '  docpipe companies set acme --signed-copy-to-sender off\n' +
        '  docpipe companies disable acme\n' +
        RECORDS_HELP,
    );

  companies
    .command('create')
    .description('create a company, with its default folder "Default"')
    .argument('<id>', 'the company id: 1 to 128 letters, digits, ".", "_" or "-"')
    .requiredOption('--name <name>', 'the name shown on signing pages and in lists')
    .option('--signing-domain <host>', "the host of its signing pages' URLs (sign.acme.example)")
    .option(
      '--language <tag>',
      'the language of its cases when a case names none: da, en, sv, nb, nn, no, de, fi, with an optional region (default: Danish)',
    )
    .option(
      '--signed-copy-to-sender <on|off>',
      "whether a case's sender gets its signed copy too when it is sealed (default: on)",
    )
    .option('--json', 'print {company, defaultFolder} as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  docpipe companies create acme --name "Acme A/S"\n' + RECORDS_HELP,
    )
    .action(
      async (
        id: string,
        flags: {
          name: string;
          signingDomain?: string;
          language?: string;
          signedCopyToSender?: string;
          json?: boolean;
        },
      ) => (await import('../actions/companies.js')).createCompany(id, flags),
    );

  companies
    .command('set')
    .description("change a company's settings")
    .argument('<id>', 'the company id')
    .requiredOption(
      '--signed-copy-to-sender <on|off>',
      "whether a case's sender gets its signed copy too when it is sealed (default: on)",
    )
    .option('--json', 'print the company as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  docpipe companies set acme --signed-copy-to-sender off\n' + RECORDS_HELP,
    )
    .action(async (id: string, flags: { signedCopyToSender: string; json?: boolean }) =>
      (await import('../actions/companies.js')).setCompany(id, flags),
    );

  companies
    .command('list')
    .description('every company: id, status, language, signing domain, created, name')
    .option('--json', 'print the list as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { json?: boolean }) =>
      (await import('../actions/companies.js')).listCompanies(flags),
    );

  companies
    .command('disable')
    .description(
      'disable a company: its API keys are refused (company-disabled); nothing is deleted',
    )
    .argument('<id>', 'the company id')
    .option('--json', 'print {company, changed} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (id: string, flags: { json?: boolean }) =>
      (await import('../actions/companies.js')).setCompanyDisabled(id, true, flags),
    );

  companies
    .command('enable')
    .description('enable a disabled company again: its API keys work again')
    .argument('<id>', 'the company id')
    .option('--json', 'print {company, changed} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (id: string, flags: { json?: boolean }) =>
      (await import('../actions/companies.js')).setCompanyDisabled(id, false, flags),
    );
}
