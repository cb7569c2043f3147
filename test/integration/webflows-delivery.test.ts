import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { startDelivery, type RunningDelivery } from '../../src/app/wiring/delivery.js';
import { flowCaseHook } from '../../src/app/wiring/flow-cases.js';
import { silentLogger } from '../../src/base/log/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { CprCipher } from '../../src/service/cpr/index.js';
import { EventQueue } from '../../src/service/delivery/index.js';
import { importForm } from '../../src/service/forms/index.js';
import { DEFAULT_MAIL_FROM } from '../../src/service/messages/index.js';
import { createWebflow, sendAnswers, type WebflowBody } from '../../src/service/webflows/index.js';
import { DEFAULT_WEBHOOK_SETTINGS, WebhookRepository } from '../../src/service/webhooks/index.js';
import { leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * A web-flow's delivery end to end on real parts (issue 36): PostgreSQL (the flow, the outbox,
 * the ledger), Redis (the events queue), a real SMTP server, a webhook receiver, and a queue
 * worker with LibreOffice for the case a completed flow makes. The flow is made by
 * createWebflow; its people answer through sendAnswers with the token read from their e-mail;
 * the schedule runs on a clock the test moves.
 */

const PUBLIC = 'http://docpipe.test';
const SECRET = 'webflows-delivery-signing-secret';
const CPR_KEY = randomBytes(32);
const DAY = 24 * 3_600_000;

let t: TestDatabase;
let stack: QueueStack;
let smtp: SmtpTestServer;
let receiver: WebhookReceiver;
let dir: string;
let ownerId: string;

beforeAll(async () => {
  [t, stack, smtp, receiver] = await Promise.all([
    testDatabase(),
    startQueueStack(),
    startSmtpServer(),
    startWebhookReceiver(),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'webflows-delivery-'));
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  ownerId = (
    await new UserRepository(t.db).add('acme', { email: 'owner@acme.example', name: 'Olga Owner' })
  ).id;
  // The lease form (reminders on: 2, 3 days apart), web-flow enabled.
  const config = loadConfig({});
  await importForm(
    { db: t.db, storage: stack.storage, limits: config.limits, delimiters: config.delimiters },
    'acme',
    await leaseFormFolder(dir, {
      edit: (f) => {
        f.webflow = true;
      },
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close(), smtp?.close(), receiver?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A clock the test sets; createWebflow, the answers, the schedule and the ledger read it. */
function clock(start = new Date()) {
  let at = start.getTime();
  return { now: () => new Date(at), add: (ms: number) => void (at += ms) };
}

interface Stack {
  delivery: RunningDelivery;
  queue: EventQueue;
  time: ReturnType<typeof clock>;
}

/** Inside a test: a lane (worker and client), delivery with the flow-case hook, a clock. */
async function start(): Promise<Stack> {
  const lane = await stack.lane();
  const time = clock();
  const config = loadConfig({
    DOCPIPE_CPR_KEY: CPR_KEY.toString('hex'),
    DOCPIPE_DATA_DIR: dir,
  });
  const delivery = await startDelivery({
    db: t.db,
    databaseUrl: t.url,
    redisUrl: stack.url,
    prefix: lane.prefix,
    storage: stack.storage,
    signingSecret: SECRET,
    publicUrl: PUBLIC,
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
    messages: {
      email: { kind: 'smtp', url: smtp.url },
      from: DEFAULT_MAIL_FROM,
      attachMaxBytes: 1024 * 1024,
      timeZone: 'Europe/Copenhagen',
      timeoutMs: 5_000,
    },
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true, backoffMs: 50 },
    logger: silentLogger,
    now: time.now,
    scheduleEveryMs: 0,
    onFlowCompleted: await flowCaseHook({
      config,
      db: t.db,
      storage: stack.storage,
      client: lane.client,
      signingSecret: SECRET,
      publicUrl: () => PUBLIC,
      logger: silentLogger,
      now: time.now,
    }),
  });
  const queue = new EventQueue(lane.connection, lane.prefix, stack.url);
  onTestFinished(async () => {
    await queue.close();
    await delivery.close();
  });
  return { delivery, queue, time };
}

/** A flow of the lease form asking `people`, sent by the owner. */
async function flow(s: Stack, people: WebflowBody['recipients'], more: Partial<WebflowBody> = {}) {
  const key = `key-${randomUUID()}`;
  const body: WebflowBody = { formId: 'lease', recipients: people, ...more };
  const made = await createWebflow(
    {
      db: t.db,
      signingSecret: SECRET,
      storage: stack.storage,
      cipher: new CprCipher(CPR_KEY),
      now: s.time.now,
    },
    { company: 'acme', keyUserId: ownerId, idempotencyKey: key, body },
  );
  return { ...made.webflow, key, body };
}

/**
 * The flow's event of `trigger`, handled: published as case creation publishes its event (the
 * job id makes it one job with the relay's, which may hold the row at this moment), then awaited.
 */
async function handled(s: Stack, flowId: string, trigger: string) {
  const row = await t.db
    .selectFrom('case_events')
    .select('id')
    .where('flow_id', '=', flowId)
    .where('trigger', '=', trigger)
    .executeTakeFirstOrThrow();
  await s.queue.publish([{ eventId: row.id, company: 'acme', caseId: null, trigger }]);
  const outcome = await s.queue.outcome(row.id, 60_000);
  expect(outcome, `${trigger} of ${flowId} was not handled`).toBeDefined();
  return { eventId: row.id, outcome: outcome! };
}

const taken = new Set<ReceivedMail>();

/** The first message to `address` not taken before, awaited (each test has addresses of its own). */
async function mailTo(address: string): Promise<ReceivedMail> {
  for (;;) {
    const found = smtp.messages.find((m) => !taken.has(m) && m.envelope.to.includes(address));
    if (found) {
      taken.add(found);
      return found;
    }
    await smtp.nextMessage();
  }
}

/** The /flow/<token> link of a message, and its token. */
function linkIn(m: ReceivedMail): { url: string; token: string } {
  const found = /(https?:\/\/\S+\/flow\/)([A-Za-z0-9_-]+)/.exec(m.parsed.text ?? '');
  expect(found, `no flow link in: ${m.parsed.text}`).not.toBeNull();
  return { url: found![0], token: found![2]! };
}

const ledger = (flowId: string) =>
  t.db
    .selectFrom('messages')
    .select(['kind', 'sequence', 'status', 'to_address', 'flow_recipient_id'])
    .where('flow_id', '=', flowId)
    .orderBy('kind')
    .orderBy('sequence')
    .orderBy('to_address')
    .execute();

const answersOf = (person: string) =>
  new Map([
    ['tenant', person],
    ['rent', '950'],
    ['start', '2027-02-01'],
  ]);

describe('invitations', () => {
  it('go once to every person in their language, each with a link of their own that opens their answers', async () => {
    const s = await start();
    const made = await flow(s, [
      { name: 'Ida Invited', email: 'ida@invite.example' },
      { name: 'Dan Dansk', email: 'dan@invite.example', language: 'da' },
    ]);
    const { outcome } = await handled(s, made.id, 'workflow.created');
    expect(outcome.email).toMatchObject({ ok: true, attempted: true });

    const ida = await mailTo('ida@invite.example');
    const dan = await mailTo('dan@invite.example');
    expect(ida.parsed.subject).toBe('Your information is needed: Lease agreement');
    expect(dan.parsed.subject).toBe('Vi har brug for dine oplysninger: Lease agreement');
    expect(ida.parsed.text).toContain('Olga Owner of Acme asks you to fill in');
    const links = [linkIn(ida), linkIn(dan)];
    expect(links[0]!.url.startsWith(`${PUBLIC}/flow/`)).toBe(true);
    expect(links[0]!.token).not.toBe(links[1]!.token);
    // Each link is the one whose SHA-256 the flow keeps for that person.
    const stored = await t.db
      .selectFrom('webflow_recipients')
      .select(['email', 'token_sha256'])
      .where('flow_id', '=', made.id)
      .orderBy('position')
      .execute();
    expect(stored.map((r) => r.token_sha256.toString('hex'))).toEqual(
      links.map((l) => createHash('sha256').update(l.token).digest('hex')),
    );
    expect(await ledger(made.id)).toEqual([
      expect.objectContaining({
        kind: 'flow-invitation',
        status: 'sent',
        to_address: 'dan@invite.example',
      }),
      expect.objectContaining({
        kind: 'flow-invitation',
        status: 'sent',
        to_address: 'ida@invite.example',
      }),
    ]);

    // The same request again: the same flow, no new event, nothing planned or sent again.
    const again = await createWebflow(
      { db: t.db, signingSecret: SECRET, storage: stack.storage, now: s.time.now },
      { company: 'acme', keyUserId: ownerId, idempotencyKey: made.key, body: made.body },
    );
    expect(again).toMatchObject({ replayed: true, webflow: { id: made.id } });
    const events = await t.db
      .selectFrom('case_events')
      .select('trigger')
      .where('flow_id', '=', made.id)
      .execute();
    expect(events).toEqual([{ trigger: 'workflow.created' }]);
    // Handled a second time (an event is handled at least once): the ledger sends none again.
    const first = await handled(s, made.id, 'workflow.created');
    await s.queue.remove(first.eventId);
    await t.db
      .updateTable('case_events')
      .set({ published_at: null })
      .where('id', '=', first.eventId)
      .execute();
    await handled(s, made.id, 'workflow.created');
    expect(await ledger(made.id)).toHaveLength(2);
    expect(smtp.messages.filter((m) => m.envelope.to.includes('ida@invite.example'))).toHaveLength(
      1,
    );
  });
});

describe('reminders and expiry', () => {
  it('remind only those who have not sent their answers, as often as the form says, and stop at the expiry', async () => {
    const s = await start();
    const made = await flow(
      s,
      [
        { name: 'Rita Quick', email: 'rita@remind.example' },
        { name: 'Sam Slow', email: 'sam@remind.example' },
      ],
      { settings: { expiresInDays: 10 } },
    );
    await handled(s, made.id, 'workflow.created');
    const rita = linkIn(await mailTo('rita@remind.example'));
    const sam = linkIn(await mailTo('sam@remind.example'));
    // Other tests' flows share the database and come due too: count this flow's own.
    const sentReminders = async () =>
      (await ledger(made.id)).filter((m) => m.kind === 'flow-reminder').length;
    const sent = await sendAnswers(
      { db: t.db, now: s.time.now },
      rita.token,
      answersOf('Rita'),
      'en',
    );
    expect(sent).toMatchObject({ kind: 'sent', completed: false });

    // Not due before its 3 days.
    s.time.add(2 * DAY);
    await s.delivery.worker.tick();
    expect(await sentReminders()).toBe(0);
    s.time.add(1 * DAY + 60_000);
    await s.delivery.worker.tick();
    expect(await sentReminders()).toBe(1);
    const first = await mailTo('sam@remind.example');
    expect(first.parsed.subject).toBe(
      'Reminder 1 of 2: Lease agreement is waiting for your answers',
    );
    expect(linkIn(first).token).toBeTruthy();
    s.time.add(3 * DAY);
    await s.delivery.worker.tick();
    expect((await mailTo('sam@remind.example')).parsed.subject).toMatch(/^Reminder 2 of 2/);
    // The form's two are all.
    s.time.add(3 * DAY);
    await s.delivery.worker.tick();
    const reminders = (await ledger(made.id)).filter((m) => m.kind === 'flow-reminder');
    expect(reminders.map((m) => [m.sequence, m.to_address, m.status])).toEqual([
      [1, 'sam@remind.example', 'sent'],
      [2, 'sam@remind.example', 'sent'],
    ]);

    // Past its 10 days: expired, and Sam's link opens nothing any more.
    s.time.add(2 * DAY);
    expect((await s.delivery.worker.tick())?.flowsExpired).toBeGreaterThanOrEqual(1);
    const row = await t.db
      .selectFrom('webflows')
      .select(['state', 'next_reminder_at'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'expired', next_reminder_at: null });
    expect(
      await sendAnswers({ db: t.db, now: s.time.now }, sam.token, answersOf('Sam'), 'en'),
    ).toEqual({
      kind: 'gone',
    });
    expect(await sentReminders()).toBe(2);
  });

  it('sends no reminder for a flow without reminders', async () => {
    const s = await start();
    const made = await flow(s, [{ name: 'Nora None', email: 'nora@remind.example' }], {
      settings: { reminders: { send: false } },
    });
    await handled(s, made.id, 'workflow.created');
    await mailTo('nora@remind.example');
    s.time.add(20 * DAY);
    await s.delivery.worker.tick();
    expect((await ledger(made.id)).map((m) => m.kind)).toEqual(['flow-invitation']);
  });
});

describe('a completed flow', () => {
  it('is delivered once to its webhooks, signed, and makes the case its `case` member asked for', async () => {
    const s = await start();
    const hook = await new WebhookRepository(t.db).add('acme', {
      url: `${receiver.url}/hooks/flows`,
      triggers: ['workflow.completed', 'case.created'],
    });
    onTestFinished(() => new WebhookRepository(t.db).remove(hook.webhook.id).then(() => undefined));
    const made = await flow(s, [{ name: 'Carl Case', email: 'carl@complete.example' }], {
      case: {
        recipients: [
          { name: 'Carl Case', email: 'carl@complete.example', signing: true },
          // A CPR number is taken only with needsCpr (a signer's would need an eID that gives it).
          { name: 'Cora Copy', email: 'cora@complete.example', needsCpr: true, cpr: '010190-1234' },
        ],
      },
    });
    // The case member's CPR number is kept encrypted until the case is made.
    const stored = await t.db
      .selectFrom('webflows')
      .select('case_request')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.case_request)).not.toContain('0101901234');
    expect(JSON.stringify(stored.case_request)).not.toContain('010190-1234');

    await handled(s, made.id, 'workflow.created');
    const carl = linkIn(await mailTo('carl@complete.example'));
    const before = receiver.requests.length;
    const sent = await sendAnswers(
      { db: t.db, now: s.time.now },
      carl.token,
      answersOf('Carl Case'),
      'en',
    );
    expect(sent).toMatchObject({ kind: 'sent', completed: true });
    const completed = await handled(s, made.id, 'workflow.completed');
    expect(completed.outcome.webhook).toMatchObject({ ok: true, attempted: true });

    const flowRow = await t.db
      .selectFrom('webflows')
      .select(['case_id', 'case_error', 'updated_at'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(flowRow.case_error).toBeNull();
    expect(flowRow.case_id).toEqual(expect.any(String));

    // The webhook's request: the flow's body, signed as every event's.
    const flowRequest = receiver.requests
      .slice(before)
      .find((r) => r.headers['x-docpipe-event'] === 'workflow.completed');
    expect(flowRequest).toBeDefined();
    const body = JSON.parse(flowRequest!.body) as {
      trigger: string;
      flow: { _id: string; updatedAt: string; state: string; formId: string };
    };
    expect(body).toMatchObject({
      trigger: 'workflow.completed',
      flow: { _id: made.id, state: 'completed', formId: 'lease' },
    });
    const stamp = flowRequest!.headers['x-docpipe-timestamp'] as string;
    const secretHash = createHmac('sha256', hook.secret).update(`${stamp}.${flowRequest!.body}`);
    expect(flowRequest!.headers['x-docpipe-signature']).toBe(`sha256=${secretHash.digest('hex')}`);

    // The case: from the answers, with the case member's recipient and CPR number (encrypted).
    const made2 = await t.db
      .selectFrom('cases')
      .select(['id', 'title', 'state'])
      .where('id', '=', flowRow.case_id!)
      .executeTakeFirstOrThrow();
    expect(made2.title).toBe('Lease agreement');
    const signer = await t.db
      .selectFrom('recipients')
      .select(['email', 'cpr_encrypted'])
      .where('case_id', '=', made2.id)
      .where('email', '=', 'cora@complete.example')
      .executeTakeFirstOrThrow();
    expect(new CprCipher(CPR_KEY).decrypt(signer.cpr_encrypted!, 'acme')).toBe('0101901234');
    // ... and its case.created follows through the outbox to the same webhook.
    const created = await t.db
      .selectFrom('case_events')
      .select('id')
      .where('case_id', '=', made2.id)
      .where('trigger', '=', 'case.created')
      .executeTakeFirstOrThrow();
    await s.queue.publish([
      { eventId: created.id, company: 'acme', caseId: made2.id, trigger: 'case.created' },
    ]);
    expect(await s.queue.outcome(created.id, 60_000)).toMatchObject({
      webhook: { ok: true, attempted: true },
    });

    // Handled again: no second delivery, no second case.
    await s.queue.remove(completed.eventId);
    await t.db
      .updateTable('case_events')
      .set({ published_at: null })
      .where('id', '=', completed.eventId)
      .execute();
    await handled(s, made.id, 'workflow.completed');
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select('trigger')
      .where('event_id', '=', completed.eventId)
      .execute();
    expect(deliveries).toEqual([{ trigger: 'workflow.completed' }]);
    const cases = await t.db
      .selectFrom('cases')
      .select('id')
      .where('created_by_key', '=', `webflow:${made.id}`)
      .execute();
    expect(cases).toEqual([{ id: made2.id }]);
  }, 120_000);
});
