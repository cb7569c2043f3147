import type { Command } from 'commander';
import type { PayoutFlags, SetFlags } from '../actions/partners.js';
import { RECORDS_HELP } from './records-help.js';

const PARTNERS_HELP =
  '\nRates are fractions from 0 to 1 with at most six decimals (0.15 is 15 %). A discount and a\n' +
  'kickback apply only while the company is an active partner (--partner true, not disabled),\n' +
  'and are read at each purchase and copied onto it: a change applies to purchases from now on.\n' +
  'A kickback is owed once per paid invoice; payouts are made by hand and recorded here.\n' +
  'Partner status is set and read only here and on the operator pages. See docs/partners.md.\n';

export function registerPartners(program: Command): void {
  const partners = program
    .command('partners')
    .description(
      "a company's partner configuration (referral code, kickback, discount, webhook); its kickbacks and payouts",
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe partners set acme --partner true --code ACME --kickback 0.15 --discount 0.10\n' +
        '  docpipe partners set acme --webhook-enabled true\n' +
        '  docpipe partners set acme --no-code\n' +
        '  docpipe partners list\n' +
        '  docpipe partners show acme --json\n' +
        '  docpipe partners kickbacks acme\n' +
        '  docpipe partners payout acme --amount 1234.50 --reference "bank transfer 2026-12-03"\n' +
        PARTNERS_HELP +
        RECORDS_HELP,
    );

  partners
    .command('set')
    .description("change a company's partner configuration; what is not given stays as it is")
    .argument('<company>', "the company's id")
    .option('--partner <true|false>', 'whether it is an active partner')
    .option(
      '--code <code>',
      'its referral code: 2 to 40 letters, digits, - or _ (unique, any case)',
    )
    .option('--no-code', 'remove its referral code (its link then names the company id)')
    .option('--kickback <fraction>', "its share of its customers' purchases, such as 0.15")
    .option('--discount <fraction>', 'the discount its customers get, such as 0.10')
    .option(
      '--webhook-enabled <true|false>',
      'whether it may add a partner.customer.registered webhook',
    )
    .option('--json', 'print the configuration as JSON')
    .addHelpText('after', PARTNERS_HELP + RECORDS_HELP)
    .action(async (company: string, flags: SetFlags) =>
      (await import('../actions/partners.js')).setPartner(company, flags),
    );

  partners
    .command('list')
    .description('every configured company, partners first: code, kickback, discount, webhook')
    .option('--json', 'print the list as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { json?: boolean }) =>
      (await import('../actions/partners.js')).listPartners(flags),
    );

  partners
    .command('show')
    .description("a company's partner configuration and what it is owed")
    .argument('<company>', "the company's id")
    .option('--json', 'print the configuration and the sums (kroner) as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (company: string, flags: { json?: boolean }) =>
      (await import('../actions/partners.js')).showPartner(company, flags),
    );

  partners
    .command('kickbacks')
    .description("a partner's kickbacks (one per paid invoice), its payouts, and what it is owed")
    .argument('<company>', "the partner's company id")
    .option('--json', 'print them as JSON (amounts in kroner, rates as fractions)')
    .addHelpText('after', RECORDS_HELP)
    .action(async (company: string, flags: { json?: boolean }) =>
      (await import('../actions/partners.js')).partnerKickbacks(company, flags),
    );

  partners
    .command('payout')
    .description('record a payout made by hand to a partner, at most what it is owed')
    .argument('<company>', "the partner's company id")
    .requiredOption('--amount <kroner>', 'the amount paid, in kroner with at most two decimals')
    .option('--reference <text>', 'where it can be found: a bank transfer, a credit note')
    .option(
      '--key <key>',
      "the payout's key: the same key records it once, when the command is run again",
    )
    .option('--json', 'print {recorded, owed} as JSON')
    .addHelpText(
      'after',
      '\nExit status 1 when the amount is more than the partner is owed (nothing is recorded).\n' +
        RECORDS_HELP,
    )
    .action(async (company: string, flags: PayoutFlags) =>
      (await import('../actions/partners.js')).payoutPartner(company, flags),
    );
}
