import type { Command } from 'commander';
import type { AddFlags } from '../actions/webhooks.js';
import { RECORDS_HELP } from './records-help.js';

/** A repeatable option's values, in the order given. */
const repeat = (value: string, previous: string[]) => [...previous, value];

const WEBHOOKS_HELP =
  '\nTriggers: case.created, case.sent, recipient.signed, recipient.invited, recipient.reminded,\n' +
  'case.signed, case.denied, case.expired, case.deleted, workflow.completed, or * for all.\n' +
  'Each delivery is signed with the secret "add" prints once (X-Docpipe-Signature:\n' +
  'sha256=HMAC(secret, "<timestamp>.<body>")); failed deliveries are retried for about a\n' +
  'day, then can be replayed.\n' +
  'Private, loopback and link-local destinations are refused unless\n' +
  'DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true. See docs/webhooks.md.\n';

export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description("add, list and remove a company's webhooks; their runs; replay a delivery")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe webhooks add --company acme --url https://hooks.acme.example/docpipe \\\n' +
        "      --trigger case.created --trigger case.signed --header 'X-Key: s3cr3t'\n" +
        '  docpipe webhooks list --company acme\n' +
        '  docpipe webhooks runs <webhook id>\n' +
        '  docpipe webhooks replay <delivery id>\n' +
        WEBHOOKS_HELP +
        RECORDS_HELP,
    );

  webhooks
    .command('add')
    .description('add a webhook; prints its signing secret, once')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--url <url>', 'where deliveries go: http(s), no user:password@')
    .requiredOption(
      '--trigger <trigger>',
      'an event it receives (repeat for more; * for all)',
      repeat,
      [],
    )
    .option(
      '--header <header>',
      "a header sent with each delivery, 'Name: value' in printable ASCII, no X-Docpipe-* name (repeatable)",
      repeat,
      [],
    )
    .option('--method <method>', 'POST, PUT or PATCH', 'POST')
    .option('--inactive', 'add it switched off (docpipe webhooks enable switches it on)')
    .option('--json', 'print {webhook, secret} as JSON')
    .addHelpText('after', WEBHOOKS_HELP + RECORDS_HELP)
    .action(async (flags: AddFlags) => (await import('../actions/webhooks.js')).addWebhook(flags));

  webhooks
    .command('list')
    .description('the webhooks of a company, or of all: id, company, state, method, triggers, URL')
    .option('--company <id>', 'only this company')
    .option('--json', 'print the list as JSON (header names only: a value may be a secret)')
    .addHelpText('after', RECORDS_HELP)
    .action(async (flags: { company?: string; json?: boolean }) =>
      (await import('../actions/webhooks.js')).listWebhooks(flags),
    );

  webhooks
    .command('remove')
    .description('remove a webhook, with its deliveries and their runs')
    .argument('<id>', "the webhook's id")
    .option('--json', 'print the removed webhook as JSON')
    .addHelpText('after', RECORDS_HELP)
    .action(async (id: string, flags: { json?: boolean }) =>
      (await import('../actions/webhooks.js')).removeWebhook(id, flags),
    );

  for (const [name, active] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    webhooks
      .command(name)
      .description(
        active
          ? 'switch a webhook on: events from now on are delivered to it'
          : 'switch a webhook off: no new deliveries; its pending ones fail at their next try',
      )
      .argument('<id>', "the webhook's id")
      .option('--json', 'print the webhook as JSON')
      .addHelpText('after', RECORDS_HELP)
      .action(async (id: string, flags: { json?: boolean }) =>
        (await import('../actions/webhooks.js')).setWebhookActive(id, active, flags),
      );

  webhooks
    .command('runs')
    .description(
      "a webhook's recent tries, newest first: time, delivery, trigger, attempt, result, duration",
    )
    .argument('<id>', "the webhook's id")
    .option('--limit <n>', 'how many', '20')
    .option('--json', 'print the runs as JSON (with the start of each answer)')
    .addHelpText('after', RECORDS_HELP)
    .action(async (id: string, flags: { limit: string; json?: boolean }) =>
      (await import('../actions/webhooks.js')).webhookRuns(id, flags),
    );

  webhooks
    .command('replay')
    .description(
      'send a failed delivery again, now (same body, new timestamp and signature); prints the result',
    )
    .argument('<delivery>', "the delivery's id (docpipe webhooks runs shows it)")
    .option('--force', 'replay a delivery that succeeded, too')
    .option(
      '--json',
      'print the try {deliveryId, attempt, ok, status, error, durationMs, ...} as JSON',
    )
    .addHelpText(
      'after',
      '\nThe try is made by this command (no worker needed), with DOCPIPE_WEBHOOK_ALLOW_PRIVATE and\n' +
        'DOCPIPE_WEBHOOK_TIMEOUT from its environment. Exit status 1 when the receiver did not take it.\n' +
        RECORDS_HELP,
    )
    .action(async (id: string, flags: { force?: boolean; json?: boolean }) =>
      (await import('../actions/webhooks.js')).replayWebhookDelivery(id, flags),
    );
}
