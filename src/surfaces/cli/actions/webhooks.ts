import type { Kysely } from 'kysely';
import { loadWebhookConfig } from '../../../app/config/index.js';
import { DocpipeError } from '../../../base/errors/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  ReplayRefusedError,
  WebhookNotFoundError,
  WebhookRepository,
  replayDelivery,
  type AttemptOutcome,
  type Webhook,
  type WebhookRun,
} from '../../../service/webhooks/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** A webhook as the CLI prints it: header names only (a value may be the receiver's secret). */
export interface WebhookView extends Omit<Webhook, 'headers'> {
  headers: string[];
}

export function webhookView(w: Webhook): WebhookView {
  return { ...w, headers: Object.keys(w.headers) };
}

/** The flags of `docpipe webhooks add`. */
export interface AddFlags {
  company: string;
  url: string;
  trigger: string[];
  header: string[];
  method: string;
  inactive?: boolean;
  json?: boolean;
}

/** `docpipe webhooks add`, declared in commands/webhooks.ts. */
export function addWebhook(flags: AddFlags): Promise<void> {
  const company = companyFlag(flags.company)!;
  return withWebhooks(flags.json, async (db) => {
    const { webhook, secret } = await new WebhookRepository(db).add(company, {
      url: flags.url,
      method: flags.method,
      triggers: flags.trigger,
      headers: flags.header,
      active: !flags.inactive,
    });
    if (flags.json) {
      printJson({ webhook: webhookView(webhook), secret });
      return;
    }
    process.stdout.write(
      `added webhook ${webhook.id} to company ${company}: ${webhook.method} ${webhook.url} ` +
        `(${webhook.triggers.join(', ')})${webhook.active ? '' : ', disabled'}\n` +
        `secret: ${secret}\n` +
        'Keep it: the receiver checks X-Docpipe-Signature with it (docs/webhooks.md). It is not shown again.\n',
    );
  });
}

/** `docpipe webhooks list`. */
export function listWebhooks(flags: { company?: string; json?: boolean }): Promise<void> {
  const company = companyFlag(flags.company);
  return withWebhooks(flags.json, async (db) => {
    const webhooks = await new WebhookRepository(db).list(company);
    if (flags.json) printJson(webhooks.map(webhookView));
    else if (webhooks.length === 0)
      process.stderr.write(
        `docpipe: ${company === undefined ? 'there are no webhooks' : `company ${company} has no webhooks`}; ` +
          `add one with: docpipe webhooks add --company ${company ?? '<id>'} --url <url> --trigger case.created\n`,
      );
    else
      process.stdout.write(
        textTable(
          ['ID', 'COMPANY', 'STATE', 'METHOD', 'TRIGGERS', 'URL'],
          webhooks.map((w) => [
            w.id,
            w.company,
            w.active ? 'enabled' : 'disabled',
            w.method,
            w.triggers.join(','),
            w.url,
          ]),
        ),
      );
  });
}

/** `docpipe webhooks remove <id>`. */
export function removeWebhook(id: string, flags: { json?: boolean }): Promise<void> {
  return withWebhooks(flags.json, async (db) => {
    const removed = await new WebhookRepository(db).remove(id);
    if (!removed) throw new WebhookNotFoundError('webhook', id);
    if (flags.json) printJson(webhookView(removed));
    else
      process.stdout.write(
        `removed webhook ${id} (${removed.url}) of company ${removed.company}\n`,
      );
  });
}

/** `docpipe webhooks enable <id>` and `disable <id>`. */
export function setWebhookActive(
  id: string,
  active: boolean,
  flags: { json?: boolean },
): Promise<void> {
  return withWebhooks(flags.json, async (db) => {
    const webhook = await new WebhookRepository(db).setActive(id, active);
    if (!webhook) throw new WebhookNotFoundError('webhook', id);
    if (flags.json) printJson(webhookView(webhook));
    else process.stdout.write(`webhook ${id} is ${active ? 'enabled' : 'disabled'}\n`);
  });
}

/** `docpipe webhooks runs <id>`. */
export function webhookRuns(id: string, flags: { limit: string; json?: boolean }): Promise<void> {
  const limit = Number(flags.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError(
      `--limit must be a whole number from 1 to 1000 (got ${JSON.stringify(flags.limit)})`,
    );
  return withWebhooks(flags.json, async (db) => {
    const repository = new WebhookRepository(db);
    if (!(await repository.find(id))) throw new WebhookNotFoundError('webhook', id);
    const runs = await repository.runs(id, { limit });
    if (flags.json) printJson(runs);
    else if (runs.length === 0) process.stderr.write(`docpipe: webhook ${id} has no runs yet\n`);
    else process.stdout.write(runsTable(runs));
  });
}

function runsTable(runs: WebhookRun[]): string {
  return textTable(
    ['TIME', 'DELIVERY', 'TRIGGER', 'ATTEMPT', 'DURATION', 'RESULT'],
    runs.map((r) => [
      when(r.startedAt),
      r.deliveryId,
      r.trigger,
      String(r.attempt),
      `${r.durationMs} ms`,
      r.error ?? String(r.status),
    ]),
  );
}

/** `docpipe webhooks replay <delivery>`: the try made here, its result printed; 1 when it failed. */
export function replayWebhookDelivery(
  id: string,
  flags: { force?: boolean; json?: boolean },
): Promise<void> {
  // A bad setting is named before the database is looked for.
  const settings = loadWebhookConfig(process.env);
  return withWebhooks(flags.json, async (db) => {
    const outcome = await replayDelivery({ db, settings }, id, { force: flags.force });
    if (flags.json) printJson(outcome);
    else process.stdout.write(replayLine(outcome));
    if (!outcome.ok) process.exitCode = EXIT.failed;
  });
}

function replayLine(o: AttemptOutcome): string {
  if (!o.attempted) return `delivery ${o.deliveryId}: not sent: ${o.skipped}\n`;
  const result = o.ok ? `${o.status}, delivered` : `not delivered: ${o.error}`;
  return `delivery ${o.deliveryId}: try ${o.attempt} to ${o.url}: ${result} (${o.durationMs} ms)\n`;
}

/**
 * Runs a webhooks command on the records database (migrated first); its own refusals become
 * messages and exit statuses: a refused flag 2, an absent webhook or delivery or a refused
 * replay 1 (the company's absence is withRecordsDatabase's to tell).
 */
async function withWebhooks(
  json: boolean | undefined,
  work: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await withRecordsDatabase({ json }, async (db) => {
    try {
      await work(db);
    } catch (err) {
      if (err instanceof DocpipeError && err.slug === 'validation-failed') {
        if (json) printJson(err.toFailure());
        process.stderr.write(
          'docpipe: the webhook is refused:\n' +
            err.details.map((d) => `  ${d.field}: ${d.message}\n`).join(''),
        );
        process.exitCode = EXIT.usage;
      } else if (err instanceof WebhookNotFoundError) {
        if (json) printJson({ error: `${err.kind}-not-found`, message: err.message });
        process.stderr.write(
          `docpipe: ${err.message} ("docpipe webhooks ${err.kind === 'webhook' ? 'list' : 'runs <webhook id>'}" shows them)\n`,
        );
        process.exitCode = EXIT.failed;
      } else if (err instanceof ReplayRefusedError) {
        if (json) printJson({ error: 'replay-refused', message: err.message });
        process.stderr.write(`docpipe: ${err.message}\n`);
        process.exitCode = EXIT.failed;
      } else throw err;
    }
  });
}
