import { createHmac, randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CompanyRepository } from '../../src/service/companies/index.js';
import type { Database } from '../../src/service/db/index.js';
import {
  WebhookRepository,
  dispatchEvent,
  type WebhookDeps,
  type WebhookEvent,
  type WebhookSettings,
} from '../../src/service/webhooks/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Dispatching events in batches (DOCPIPE_DELIVERY_BATCH) against a real PostgreSQL and receivers
 * on loopback: the events dispatched at once share their statements (the companies' webhooks
 * read once, the deliveries inserted by one statement, the tries recorded by one), and each
 * event still gets its own deliveries, once, with its own fixed signed body; a bad event fails
 * alone, and a webhook's first tries start in the events' order.
 */

let t: TestDatabase;
/** A pool of its own on the same database, counting the statements it sends. */
let counted: Kysely<Database>;
let statements = 0;

beforeAll(async () => {
  t = await testDatabase();
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme' });
  await new CompanyRepository(t.db).create({ id: 'beta', name: 'Beta' });
  counted = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.url, max: 4 }) }),
    log: (e) => {
      if (e.level === 'query') statements++;
    },
  });
});
afterAll(async () => {
  await counted?.destroy();
  await t?.close();
});

const SETTINGS: WebhookSettings = {
  backoffMs: 60_000,
  retryForMs: 60_000,
  allowPrivate: true,
  timeoutMs: 5_000,
  concurrency: 4,
  batchSize: 50,
};

const deps = (settings: Partial<WebhookSettings> = {}): WebhookDeps => ({
  db: counted,
  settings: { ...SETTINGS, ...settings },
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  onTestFinished(() => r.close());
  return r;
}

async function webhook(company: string, url: string, triggers: string[]) {
  const added = await new WebhookRepository(t.db).add(company, { url, triggers });
  onTestFinished(() => new WebhookRepository(t.db).remove(added.webhook.id).then(() => undefined));
  return added;
}

/** An event as the relay hands it over (no case row: dispatch reads only the event). */
function event(company: string, trigger: string, n: number): WebhookEvent {
  return {
    id: randomUUID(),
    company,
    caseId: null,
    trigger,
    payload: { trigger, case: { _id: `${company}-${n}`, title: `Lease ${n} «æøå»` } },
  };
}

const caseOf = (body: string) => (JSON.parse(body) as { case: { _id: string } }).case._id;

describe('dispatching events in a batch', () => {
  it('sends each event to each webhook of its company that receives it, once, signed over its own body, by a few statements for all', async () => {
    const a = await receiver();
    const b = await receiver();
    const c = await receiver();
    const hookA = await webhook('acme', `${a.url}/a`, ['case.created']);
    const hookB = await webhook('acme', `${b.url}/b`, ['case.created', 'case.signed']);
    const hookC = await webhook('beta', `${c.url}/c`, ['case.created']);
    const events = [
      ...[0, 1, 2].map((n) => event('acme', 'case.created', n)),
      event('acme', 'case.signed', 3),
      ...[4, 5].map((n) => event('beta', 'case.created', n)),
      // Received by no webhook of beta's.
      event('beta', 'case.signed', 6),
    ];
    statements = 0;
    const outcomes = await Promise.all(events.map((e) => dispatchEvent(deps(), e)));
    const used = statements;
    expect(outcomes.map((o) => o.deliveries)).toEqual([2, 2, 2, 1, 1, 1, 0]);
    expect(outcomes.slice(0, 6).every((o) => o.result.ok)).toBe(true);
    expect(outcomes[6]!.result).toMatchObject({ ok: true, attempted: false });
    // One at a time this is 1 + 1 + 2 statements an event per delivery (21 here); in a batch the
    // webhooks are read once, the deliveries inserted once, the 9 tries recorded in a few.
    expect(used).toBeLessThanOrEqual(8);

    expect(a.requests.map((r) => caseOf(r.body)).sort()).toEqual(['acme-0', 'acme-1', 'acme-2']);
    expect(b.requests.map((r) => caseOf(r.body)).sort()).toEqual([
      'acme-0',
      'acme-1',
      'acme-2',
      'acme-3',
    ]);
    expect(c.requests.map((r) => caseOf(r.body)).sort()).toEqual(['beta-4', 'beta-5']);
    // Every request carries its own event's body, byte for byte, signed with its webhook's secret.
    const secrets = new Map([
      ['/a', hookA.secret],
      ['/b', hookB.secret],
      ['/c', hookC.secret],
    ]);
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'body', 'status', 'attempts'])
      .where(
        'event_id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    expect(deliveries).toHaveLength(9);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    for (const r of [...a.requests, ...b.requests, ...c.requests]) {
      const d = deliveries.find((x) => x.id === r.headers['x-docpipe-delivery'])!;
      const e = events.find((x) => x.id === d.event_id)!;
      expect(r.body).toBe(JSON.stringify(e.payload));
      expect(d.body).toBe(r.body);
      const ts = String(r.headers['x-docpipe-timestamp']);
      const expected = createHmac('sha256', secrets.get(r.url)!)
        .update(`${ts}.${r.body}`)
        .digest('hex');
      expect(String(r.headers['x-docpipe-signature'])).toContain(expected);
    }
    const tries = await t.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempt', 'status'])
      .where(
        'delivery_id',
        'in',
        deliveries.map((d) => d.id),
      )
      .execute();
    expect(tries).toHaveLength(9);
    expect(tries.every((x) => x.attempt === 1 && x.status === 200)).toBe(true);
  });

  it('fails only the event whose row cannot be written: the others of its batch are delivered once each', async () => {
    const a = await receiver();
    await webhook('acme', `${a.url}/a`, ['case.created']);
    const good = [0, 1, 2, 3].map((n) => event('acme', 'case.created', 10 + n));
    // Its case id is no uuid: its delivery's insert fails, and with it the batch's statement.
    const bad: WebhookEvent = { ...event('acme', 'case.created', 99), caseId: 'not-a-uuid' };
    const all = [good[0]!, good[1]!, bad, good[2]!, good[3]!];
    const settled = await Promise.allSettled(all.map((e) => dispatchEvent(deps(), e)));
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.deliveries] : []))).toEqual([
      1, 1, 1, 1,
    ]);
    expect(a.requests.map((r) => caseOf(r.body)).sort()).toEqual([
      'acme-10',
      'acme-11',
      'acme-12',
      'acme-13',
    ]);
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status'])
      .where(
        'event_id',
        'in',
        all.map((e) => e.id),
      )
      .execute();
    expect(rows.map((r) => r.event_id).sort()).toEqual(good.map((e) => e.id).sort());
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
  });

  it('makes an event dispatched twice in one batch one delivery, sent once', async () => {
    const a = await receiver();
    await webhook('acme', `${a.url}/a`, ['case.created']);
    const e = event('acme', 'case.created', 20);
    const other = event('acme', 'case.created', 21);
    const outcomes = await Promise.all([e, other, e].map((x) => dispatchEvent(deps(), x)));
    expect(outcomes.map((o) => o.deliveries).sort()).toEqual([0, 1, 1]);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.requests.map((r) => caseOf(r.body)).sort()).toEqual(['acme-20', 'acme-21']);
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', '=', e.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("starts a webhook's first tries in the order its events were handed over", async () => {
    const a = await receiver();
    await webhook('acme', `${a.url}/a`, ['case.created']);
    const events = Array.from({ length: 12 }, (_, n) => event('acme', 'case.created', 30 + n));
    await Promise.all(events.map((e) => dispatchEvent(deps(), e)));
    const tries = await t.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['webhook_deliveries.event_id', 'webhook_attempts.started_at'])
      .where(
        'webhook_deliveries.event_id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    const started = events.map((e) => tries.find((x) => x.event_id === e.id)!.started_at.getTime());
    expect(started).toHaveLength(12);
    for (let i = 1; i < started.length; i++)
      expect(started[i]!).toBeGreaterThanOrEqual(started[i - 1]!);
  });

  it('with a batch size of 1 makes the same deliveries, one statement each', async () => {
    const a = await receiver();
    await webhook('acme', `${a.url}/a`, ['case.created']);
    const events = [0, 1, 2].map((n) => event('acme', 'case.created', 50 + n));
    statements = 0;
    const outcomes = await Promise.all(events.map((e) => dispatchEvent(deps({ batchSize: 1 }), e)));
    expect(outcomes.map((o) => o.deliveries)).toEqual([1, 1, 1]);
    // The webhooks, the delivery, the try's record: 3 an event.
    expect(statements).toBe(9);
    expect(a.requests.map((r) => caseOf(r.body)).sort()).toEqual(['acme-50', 'acme-51', 'acme-52']);
  });
});
