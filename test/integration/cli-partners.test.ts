import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { CompanyRepository } from '../../src/service/companies/index.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The operator's partner and credits commands, through the built CLI, against real PostgreSQL:
 * the partner configuration with its refusals by flag (a code unique without regard to case, no
 * code that is another company's id), a purchase by invoice marked paid earning its referrer one
 * kickback, a payout of more than is owed refused, an EAN purchase with a bad check digit
 * refused, a card purchase without a provider, a correction line.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let t: TestDatabase;

beforeAll(async () => {
  t = await testDatabase();
  const companies = new CompanyRepository(t.db);
  await companies.create({ id: 'acme', name: 'Acme' });
  await companies.create({ id: 'beta', name: 'Beta' });
  await companies.create({ id: 'gamma', name: 'Gamma' });
  // A company that signed up through acme's link: referred_by is written with the company and
  // never after (a trigger refuses the change), as sign-up writes it.
  await t.db
    .insertInto('companies')
    .values({ id: 'kunde', name: 'Kunde ApS', referred_by: 'acme' })
    .execute();
});
afterAll(async () => {
  await t?.close();
});

/** The environment of this file's docpipe commands: its database and a credit price with VAT. */
function env(): Record<string, string> {
  return {
    DATABASE_URL: t.url,
    DOCPIPE_DATA_DIR: testDir('docpipe-cli-partners-'),
    DOCPIPE_CREDIT_PRICE: '2.50',
    DOCPIPE_VAT_RATE: '0.25',
  };
}

/** A docpipe command run in this process (test/helpers/cli-in-process.ts). */
function docpipe(...args: string[]) {
  return docpipeInProcess(env(), ...args);
}

/** The same through the built CLI in a process of its own, as an operator runs it. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, ...env() },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
  const r = await docpipe(...args, '--json');
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('docpipe partners', () => {
  it('sets, shows and lists a configuration with exact fractions', async () => {
    const set = await json(
      'partners',
      'set',
      'acme',
      '--partner',
      'true',
      '--code',
      'AcmeRef',
      '--kickback',
      '0.15',
      '--discount',
      '0.10',
    );
    expect(set).toMatchObject({
      company: 'acme',
      isPartner: true,
      code: 'AcmeRef',
      kickback: '0.15',
      discount: '0.1',
      kickbackPpm: 150_000,
      discountPpm: 100_000,
      webhookEnabled: false,
    });

    const people = await docpipe('partners', 'set', 'acme', '--webhook-enabled', 'true');
    expect(people.status, people.stderr).toBe(0);
    expect(people.stdout).toBe(
      'company acme: an active partner, code AcmeRef, kickback 15 %, discount 10 %, partner webhook allowed\n',
    );

    expect(await json('partners', 'show', 'acme')).toMatchObject({
      company: 'acme',
      isPartner: true,
      code: 'AcmeRef',
      webhookEnabled: true,
      earned: '0.00',
      paidOut: '0.00',
      owed: '0.00',
    });
    // A company never configured: no partner, everything off.
    expect(await json('partners', 'show', 'beta')).toMatchObject({
      isPartner: false,
      code: null,
      kickback: '0',
      updatedAt: null,
    });

    const list = (await json('partners', 'list')) as unknown as { company: string }[];
    expect(list.map((p) => p.company)).toEqual(['acme']);
    const table = await docpipe('partners', 'list');
    expect(table.stdout).toMatch(
      /^COMPANY\s+PARTNER\s+KICKBACK\s+DISCOUNT\s+WEBHOOK\s+CODE\nacme\s+yes\s+15 %\s+10 %\s+allowed\s+AcmeRef\n$/,
    );
  });

  it('refuses bad flags by name, all at once, before the database', async () => {
    const r = await docpipe(
      'partners',
      'set',
      'acme',
      '--kickback',
      '0.15%',
      '--partner',
      'yes',
      '--discount',
      '1.5',
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'docpipe: the partner configuration is refused:\n' +
        '  --partner: must be true or false (got "yes")\n' +
        '  --kickback: must be a fraction from 0 to 1 with at most six decimals, such as 0.15 for 15 % (got "0.15%")\n' +
        '  --discount: must be a fraction from 0 to 1 with at most six decimals, such as 0.15 for 15 % (got "1.5")\n',
    );
    const shape = await docpipe('partners', 'set', 'beta', '--code', 'a b', '--json');
    expect(shape.status).toBe(2);
    expect(JSON.parse(shape.stdout)).toMatchObject({
      error: 'validation-failed',
      details: [{ field: '--code' }],
    });
  });

  it('keeps a code unique without regard to case, and never another company id', async () => {
    const clash = await docpipe('partners', 'set', 'beta', '--code', 'ACMEREF', '--json');
    expect(clash.status).toBe(1);
    expect(JSON.parse(clash.stdout)).toMatchObject({ error: 'partner-exists' });
    expect(clash.stderr).toContain('ACMEREF');

    const id = await docpipe('partners', 'set', 'beta', '--code', 'Gamma');
    expect(id.status).toBe(2);
    expect(id.stderr).toBe(
      'docpipe: the partner is refused:\n  --code: is the id of company gamma: a link would name both\n',
    );
    expect(await json('partners', 'show', 'beta')).toMatchObject({ code: null });

    // --no-code frees the code for another company.
    expect(await json('partners', 'set', 'acme', '--no-code')).toMatchObject({ code: null });
    expect(await json('partners', 'set', 'beta', '--code', 'acmeref')).toMatchObject({
      code: 'acmeref',
    });
    expect(await json('partners', 'set', 'acme', '--code', 'AcmeRef2')).toMatchObject({
      code: 'AcmeRef2',
    });
  });

  it('names an unknown company', () => {
    // Through the built CLI: its own exit status, as a script sees it.
    const r = spawned('partners', 'show', 'nobody');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nobody');
  });
});

describe('docpipe credits and kickbacks', () => {
  it('prices an invoice purchase with the partner discount; paid records one kickback; a payout above it is refused', async () => {
    const bought = (await json(
      'credits',
      'purchase',
      'kunde',
      '--credits',
      '100',
      '--method',
      'invoice',
      '--reference',
      'PO-1',
      '--key',
      'buy-1',
    )) as { purchase: Record<string, unknown>; again: boolean };
    // 100 × 2.50 = 250.00; discount 10 % = 25.00; net 225.00; VAT 56.25; total 281.25.
    expect(bought).toMatchObject({
      again: false,
      purchase: {
        company: 'kunde',
        credits: '100',
        method: 'invoice',
        status: 'open',
        referrer: 'acme',
        referrerPartner: true,
        gross: '250.00',
        discountAmount: '25.00',
        net: '225.00',
        vatAmount: '56.25',
        total: '281.25',
        kickback: '0.15',
        by: 'operator',
      },
    });
    const invoice = bought.purchase.invoiceNumber as string;
    // The same key records one purchase.
    expect(
      await json(
        'credits',
        'purchase',
        'kunde',
        '--credits',
        '100',
        '--method',
        'invoice',
        '--key',
        'buy-1',
      ),
    ).toMatchObject({ again: true, purchase: { invoiceNumber: invoice } });

    // Credits are added at once; nothing is owed before the invoice is paid.
    const shown = (await json('credits', 'show', 'kunde')) as {
      balance: Record<string, string>;
      purchases: unknown[];
    };
    expect(shown.balance).toEqual({ paid: '100', free: '0', total: '100' });
    expect(shown.purchases).toHaveLength(1);
    expect(await json('partners', 'kickbacks', 'acme')).toMatchObject({
      kickbacks: [],
      owed: '0.00',
    });

    const paid = await docpipe('credits', 'paid', invoice);
    expect(paid.status, paid.stderr).toBe(0);
    expect(paid.stdout).toBe(
      `invoice ${invoice} of kunde is paid (281.25 kr); acme is owed a kickback of 33.75 kr for it\n`,
    );
    expect(await json('credits', 'paid', invoice)).toMatchObject({ again: true });
    const account = await json('partners', 'kickbacks', 'acme');
    expect(account).toMatchObject({
      kickbacks: [
        {
          customer: 'kunde',
          invoiceNumber: invoice,
          base: '225.00',
          kickback: '0.15',
          amount: '33.75',
        },
      ],
      payouts: [],
      earned: '33.75',
      owed: '33.75',
    });
    const rows = await t.db.selectFrom('partner_kickbacks').select('amount_ore').execute();
    expect(rows.map((r) => String(r.amount_ore))).toEqual(['3375']);

    const tooMuch = await docpipe('partners', 'payout', 'acme', '--amount', '33.76');
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toBe(
      'docpipe: partner acme is owed 33.75 kr: a payout of 33.76 kr is more than that; nothing was recorded\n',
    );
    expect(
      await json(
        'partners',
        'payout',
        'acme',
        '--amount',
        '30',
        '--reference',
        'bank 1',
        '--key',
        'p1',
      ),
    ).toEqual({ recorded: true, owed: '3.75' });
    expect(await json('partners', 'payout', 'acme', '--amount', '30', '--key', 'p1')).toEqual({
      recorded: false,
      owed: '3.75',
    });
    expect(await json('partners', 'show', 'acme')).toMatchObject({
      earned: '33.75',
      paidOut: '30.00',
      owed: '3.75',
    });
  });

  it('refuses an EAN purchase whose GLN check digit does not match, and a card purchase without a provider', async () => {
    const bad = await docpipe(
      'credits',
      'purchase',
      'beta',
      '--credits',
      '10',
      '--method',
      'ean',
      '--gln',
      '5790000000006',
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      'docpipe: the purchase is refused:\n  --gln: is not an EAN location number: its check digit does not match\n',
    );
    const good = (await json(
      'credits',
      'purchase',
      'beta',
      '--credits',
      '10',
      '--method',
      'ean',
      '--gln',
      '5790000000005',
      '--order-number',
      '4711',
      '--contact',
      'Jens',
    )) as { purchase: Record<string, unknown> };
    // beta was referred by nobody: the list price, no kickback.
    expect(good.purchase).toMatchObject({
      status: 'open',
      referrerPartner: false,
      total: '31.25',
      ean: { gln: '5790000000005', orderNumber: '4711', contact: 'Jens' },
    });

    const card = await docpipe(
      'credits',
      'purchase',
      'beta',
      '--credits',
      '10',
      '--method',
      'card',
    );
    expect(card.status).toBe(1);
    expect(card.stderr).toBe(
      'docpipe: card payments need a payment provider, and this installation has none: buy by invoice or EAN\n',
    );
  });

  it('sets and turns off auto-refill, and adds a correction line once per key', async () => {
    expect(
      await json(
        'credits',
        'refill',
        'beta',
        '--below',
        '20',
        '--credits',
        '100',
        '--method',
        'invoice',
      ),
    ).toEqual({ below: '20', credits: '100', method: 'invoice', ean: null });
    expect(await json('credits', 'show', 'beta')).toMatchObject({
      autoRefill: { below: '20', credits: '100', method: 'invoice' },
    });
    const half = await docpipe('credits', 'refill', 'beta', '--below', '20');
    expect(half.status).toBe(2);
    expect(half.stderr).toContain('--credits: is needed');
    expect(await json('credits', 'refill', 'beta', '--off')).toBeNull();

    const correct = [
      'credits',
      'correct',
      'beta',
      '--credits',
      '-3',
      '--note',
      'counted twice',
      '--key',
      'fix-1',
    ];
    expect(await json(...correct)).toEqual({
      added: true,
      balance: { paid: '7', free: '0', total: '7' },
    });
    expect(await json(...correct)).toEqual({
      added: false,
      balance: { paid: '7', free: '0', total: '7' },
    });
    expect(
      await json(
        'credits',
        'correct',
        'beta',
        '--credits',
        '5',
        '--free',
        '--note',
        'goodwill',
        '--key',
        'gift-1',
      ),
    ).toEqual({ added: true, balance: { paid: '7', free: '5', total: '12' } });
    const shown = await docpipe('credits', 'show', 'beta');
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('company beta: 12 credits (7 bought, 5 given)');
    expect(shown.stdout).toMatch(/correction\s+-3\s+0\s+operator\s+counted twice/);
    expect(shown.stderr).toBe('');
  });

  it('warns when the cached balance differs from the ledger', async () => {
    await t.db
      .updateTable('credit_balances')
      .set({ paid: 999n })
      .where('company_id', '=', 'beta')
      .execute();
    const shown = await docpipe('credits', 'show', 'beta');
    expect(shown.status).toBe(0);
    expect(shown.stderr).toBe(
      "docpipe: warning: the cached balance of beta (999 bought, 5 given) differs from its ledger's sums (7 bought, 5 given); the ledger is right\n",
    );
  });
});
