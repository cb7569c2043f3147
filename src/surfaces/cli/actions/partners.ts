import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  formatFraction,
  formatKroner,
  formatPercent,
  parseFraction,
  parseKroner,
} from '../../../base/util/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  PartnerRepository,
  PayoutTooLargeError,
  partnerAccount,
  recordPayout,
  type PartnerAccount,
  type PartnerChanges,
  type PartnerConfig,
} from '../../../service/partners/index.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { refuseFlags, type FlagProblem } from './flag-problems.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** The flags of `docpipe partners set`. */
export interface SetFlags {
  partner?: string;
  /** A string, or false for --no-code. */
  code?: string | false;
  kickback?: string;
  discount?: string;
  webhookEnabled?: string;
  json?: boolean;
}

/** The flags of `docpipe partners payout`. */
export interface PayoutFlags {
  amount: string;
  reference?: string;
  key?: string;
  json?: boolean;
}

/** The service's field names as a person typed them. */
const FIELDS = {
  code: '--code',
  kickbackPercent: '--kickback',
  discountPercent: '--discount',
  isPartner: '--partner',
  webhookEnabled: '--webhook-enabled',
};

/** A configuration as --json prints it: rates as exact fractions beside their ppm. */
export function partnerView(p: PartnerConfig) {
  return {
    company: p.company,
    isPartner: p.isPartner,
    code: p.code,
    kickback: formatFraction(p.kickbackPpm),
    discount: formatFraction(p.discountPpm),
    kickbackPpm: p.kickbackPpm,
    discountPpm: p.discountPpm,
    webhookEnabled: p.webhookEnabled,
    updatedAt: p.updatedAt,
  };
}

function accountSums(a: PartnerAccount) {
  return {
    earned: formatKroner(a.earnedOre),
    paidOut: formatKroner(a.paidOutOre),
    owed: formatKroner(a.owedOre),
  };
}

function yesNo(text: string | undefined, flag: string, problems: FlagProblem[]) {
  if (text === undefined) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  problems.push({ field: flag, message: `must be true or false (got ${JSON.stringify(text)})` });
  return undefined;
}

function rate(text: string | undefined, flag: string, problems: FlagProblem[]) {
  if (text === undefined) return undefined;
  const ppm = parseFraction(text);
  if (ppm === undefined)
    problems.push({
      field: flag,
      message: `must be a fraction from 0 to 1 with at most six decimals, such as 0.15 for 15 % (got ${JSON.stringify(text)})`,
    });
  return ppm;
}

/** The changes the flags ask for, every problem of them at once. */
export function partnerChanges(flags: SetFlags): {
  changes: PartnerChanges;
  problems: FlagProblem[];
} {
  const problems: FlagProblem[] = [];
  const isPartner = yesNo(flags.partner, '--partner', problems);
  const webhookEnabled = yesNo(flags.webhookEnabled, '--webhook-enabled', problems);
  const kickbackPpm = rate(flags.kickback, '--kickback', problems);
  const discountPpm = rate(flags.discount, '--discount', problems);
  const changes: PartnerChanges = {
    ...(isPartner !== undefined ? { isPartner } : {}),
    ...(webhookEnabled !== undefined ? { webhookEnabled } : {}),
    ...(kickbackPpm !== undefined ? { kickbackPpm } : {}),
    ...(discountPpm !== undefined ? { discountPpm } : {}),
    ...(flags.code === false
      ? { code: null }
      : flags.code !== undefined
        ? { code: flags.code }
        : {}),
  };
  if (problems.length === 0 && Object.keys(changes).length === 0)
    problems.push({
      field: 'flags',
      message:
        'nothing to change: give --partner, --code, --no-code, --kickback, --discount or --webhook-enabled',
    });
  return { changes, problems };
}

/** One line for people. */
function describe(p: PartnerConfig): string {
  return (
    `company ${p.company}: ${p.isPartner ? 'an active partner' : 'not a partner'}, ` +
    `code ${p.code ?? '(none: the link names the company id)'}, ` +
    `kickback ${formatPercent(p.kickbackPpm)}, discount ${formatPercent(p.discountPpm)}, ` +
    `partner webhook ${p.webhookEnabled ? 'allowed' : 'not allowed'}`
  );
}

/** `docpipe partners set <company>`, declared in commands/partners.ts. */
export async function setPartner(company: string, flags: SetFlags): Promise<void> {
  const { changes, problems } = partnerChanges(flags);
  if (problems.length > 0) return refuseFlags('partner configuration', problems, flags.json);
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    const config = await new PartnerRepository(db).set(company, changes);
    if (flags.json) printJson(partnerView(config));
    else process.stdout.write(`${describe(config)}\n`);
  });
}

/** `docpipe partners list`. */
export async function listPartners(flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const all = await new PartnerRepository(db).list();
    if (flags.json) printJson(all.map(partnerView));
    else if (all.length === 0)
      process.stderr.write(
        'docpipe: no company is configured as a partner; make one with: docpipe partners set <company> --partner true\n',
      );
    else
      process.stdout.write(
        textTable(
          ['COMPANY', 'PARTNER', 'KICKBACK', 'DISCOUNT', 'WEBHOOK', 'CODE'],
          all.map((p) => [
            p.company,
            p.isPartner ? 'yes' : 'no',
            formatPercent(p.kickbackPpm),
            formatPercent(p.discountPpm),
            p.webhookEnabled ? 'allowed' : 'no',
            p.code ?? '-',
          ]),
        ),
      );
  });
}

/** `docpipe partners show <company>`. */
export async function showPartner(company: string, flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const config = await new PartnerRepository(db).get(company);
    const account = await partnerAccount(db, company);
    if (flags.json) printJson({ ...partnerView(config), ...accountSums(account) });
    else
      process.stdout.write(
        `${describe(config)}\n` +
          `kickbacks earned ${formatKroner(account.earnedOre)} kr, paid out ${formatKroner(account.paidOutOre)} kr, ` +
          `owed ${formatKroner(account.owedOre)} kr\n`,
      );
  });
}

/** `docpipe partners kickbacks <company>`. */
export async function partnerKickbacks(company: string, flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    await new PartnerRepository(db).get(company);
    const account = await partnerAccount(db, company);
    if (flags.json) {
      printJson({
        partner: company,
        kickbacks: account.kickbacks.map((k) => ({
          customer: k.customer,
          invoiceNumber: k.invoiceNumber,
          base: formatKroner(k.baseOre),
          kickback: formatFraction(k.kickbackPpm),
          amount: formatKroner(k.amountOre),
          createdAt: k.createdAt,
        })),
        payouts: account.payouts.map((p) => ({
          amount: formatKroner(p.amountOre),
          reference: p.reference,
          createdAt: p.createdAt,
        })),
        ...accountSums(account),
      });
      return;
    }
    process.stdout.write(
      (account.kickbacks.length === 0
        ? 'no kickbacks yet\n'
        : textTable(
            ['TIME', 'INVOICE', 'BASE', 'RATE', 'KICKBACK', 'CUSTOMER'],
            account.kickbacks.map((k) => [
              when(k.createdAt),
              k.invoiceNumber,
              formatKroner(k.baseOre),
              formatPercent(k.kickbackPpm),
              formatKroner(k.amountOre),
              k.customer,
            ]),
          )) +
        (account.payouts.length === 0
          ? 'no payouts yet\n'
          : '\n' +
            textTable(
              ['TIME', 'PAYOUT', 'REFERENCE'],
              account.payouts.map((p) => [
                when(p.createdAt),
                formatKroner(p.amountOre),
                p.reference ?? '-',
              ]),
            )) +
        `earned ${formatKroner(account.earnedOre)} kr, paid out ${formatKroner(account.paidOutOre)} kr, owed ${formatKroner(account.owedOre)} kr\n`,
    );
  });
}

/** `docpipe partners payout <company> --amount`. */
export async function payoutPartner(company: string, flags: PayoutFlags): Promise<void> {
  const amountOre = parseKroner(flags.amount);
  const problems: FlagProblem[] = [];
  if (amountOre === undefined || amountOre === 0n)
    problems.push({
      field: '--amount',
      message: `must be kroner above 0 with at most two decimals, such as 1234.50 (got ${JSON.stringify(flags.amount)})`,
    });
  if (flags.key !== undefined && (flags.key.length === 0 || flags.key.length > 255))
    problems.push({ field: '--key', message: 'must be 1 to 255 characters' });
  if (problems.length > 0) return refuseFlags('payout', problems, flags.json);
  await withRecordsDatabase({ json: flags.json }, async (db: Kysely<Database>) => {
    await new PartnerRepository(db).get(company);
    try {
      const out = await recordPayout(db, {
        partner: company,
        amountOre: amountOre!,
        ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
        key: flags.key ?? randomUUID(),
        by: 'operator',
      });
      if (flags.json) printJson({ recorded: out.recorded, owed: formatKroner(out.owedOre) });
      else
        process.stdout.write(
          out.recorded
            ? `recorded a payout of ${formatKroner(amountOre!)} kr to ${company}; owed now ${formatKroner(out.owedOre)} kr\n`
            : `the payout with key ${flags.key} was recorded before; nothing new (owed ${formatKroner(out.owedOre)} kr)\n`,
        );
    } catch (err) {
      if (!(err instanceof PayoutTooLargeError)) throw err;
      const message = `partner ${company} is owed ${formatKroner(err.owedOre)} kr: a payout of ${formatKroner(err.amountOre)} kr is more than that; nothing was recorded`;
      if (flags.json) printJson({ error: 'payout-too-large', message });
      process.stderr.write(`docpipe: ${message}\n`);
      process.exitCode = EXIT.failed;
    }
  });
}
