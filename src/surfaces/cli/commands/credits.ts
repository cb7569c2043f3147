import type { Command } from 'commander';
import type { CorrectFlags, PurchaseFlags, RefillFlags } from '../actions/credits.js';
import { RECORDS_HELP } from './records-help.js';

const CREDITS_HELP =
  '\nA sent case uses DOCPIPE_CREDITS_PER_CASE credits; one costs DOCPIPE_CREDIT_PRICE kroner\n' +
  'excluding VAT (DOCPIPE_VAT_RATE, added once per invoice). An invoice or EAN purchase adds its\n' +
  'credits at once and is open until "docpipe credits paid" marks it paid; a card purchase needs\n' +
  'a payment provider. See docs/partners.md.\n';

const EAN_OPTIONS = (command: Command): Command =>
  command
    .option('--gln <digits>', "for --method ean: the public body's 13-digit EAN location number")
    .option('--order-number <text>', 'for --method ean: its order number')
    .option('--contact <text>', 'for --method ean: its contact person');

export function registerCredits(program: Command): void {
  const credits = program
    .command('credits')
    .description("a company's credits: balance and ledger, purchases, auto-refill, corrections")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe credits show acme\n' +
        '  docpipe credits purchase acme --credits 500 --method invoice --reference PO-118\n' +
        '  docpipe credits purchase kommune --credits 1000 --method ean --gln 5790000000005 \\\n' +
        '      --order-number 4711 --contact "Jens Hansen"\n' +
        '  docpipe credits paid DP-0000012\n' +
        '  docpipe credits refill acme --below 20 --credits 100 --method invoice\n' +
        '  docpipe credits refill acme --off\n' +
        '  docpipe credits correct acme --credits -3 --note "cases counted twice" --key fix-118\n' +
        CREDITS_HELP +
        RECORDS_HELP,
    );

  credits
    .command('show')
    .description(
      "a company's balance (bought, given, total), its recent ledger lines and purchases",
    )
    .argument('<company>', "the company's id")
    .option('--json', 'print {balance, lines, purchases, autoRefill} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (company: string, flags: { json?: boolean }) =>
      (await import('../actions/credits.js')).showCredits(company, flags),
    );

  EAN_OPTIONS(
    credits
      .command('purchase')
      .description('record a purchase of credits for a company, by the operator; adds them now')
      .argument('<company>', "the company's id")
      .requiredOption('--credits <n>', 'how many credits, 1 to 1000000')
      .requiredOption('--method <method>', 'card, invoice or ean'),
  )
    .option('--reference <text>', "the buyer's own reference (a purchase order) on the invoice")
    .option('--key <key>', "the purchase's key: the same key records one purchase")
    .option('--json', 'print {purchase, again} as JSON (amounts in kroner)')
    .addHelpText(
      'after',
      '\nThe price is read now: the list price less the discount of an active partner that\n' +
        'referred the company, VAT added once. Exit status 2 for a refused flag (a GLN whose\n' +
        'check digit does not match), 1 when card payments are not available.\n' +
        CREDITS_HELP +
        RECORDS_HELP,
    )
    .action(async (company: string, flags: PurchaseFlags) =>
      (await import('../actions/credits.js')).purchaseCredits(company, flags),
    );

  credits
    .command('paid')
    .description('mark an open invoice or EAN purchase paid; records the kickback it earns, once')
    .argument('<invoice>', 'the invoice number, such as DP-0000012')
    .option('--json', 'print {purchase, again} as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (invoice: string, flags: { json?: boolean }) =>
      (await import('../actions/credits.js')).markPaid(invoice, flags),
    );

  EAN_OPTIONS(
    credits
      .command('refill')
      .description(
        "set a company's auto-refill (buy --credits when the balance is below --below), or --off",
      )
      .argument('<company>', "the company's id")
      .option('--below <n>', 'buy when the balance falls below this many credits')
      .option('--credits <n>', 'how many credits each refill buys')
      .option('--method <method>', 'invoice, ean or card'),
  )
    .option('--off', 'turn auto-refill off')
    .option('--json', 'print the auto-refill (null when off) as JSON')
    .addHelpText('after', CREDITS_HELP + RECORDS_HELP)
    .action(async (company: string, flags: RefillFlags) =>
      (await import('../actions/credits.js')).setRefill(company, flags),
    );

  credits
    .command('correct')
    .description("add a correction line to a company's ledger: credits added (+N) or taken (-N)")
    .argument('<company>', "the company's id")
    .requiredOption('--credits <n>', 'credits to add, or with a minus to take, such as -3')
    .option('--free', 'correct the given (free) credits rather than the bought ones')
    .requiredOption('--note <text>', 'why: it is kept on the line')
    .requiredOption('--key <key>', "the correction's key: the same key adds the line once")
    .option('--json', 'print {added, balance} as JSON')
    .addHelpText(
      'after',
      '\nThe ledger is append-only: a correction is a line of its own, never an edit.\n' +
        RECORDS_HELP,
    )
    .action(async (company: string, flags: CorrectFlags) =>
      (await import('../actions/credits.js')).correctCredits(company, flags),
    );
}
