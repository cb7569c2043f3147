import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startDelivery, type RunningDelivery } from '../../src/app/wiring/delivery.js';
import { silentLogger } from '../../src/base/log/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { LocalStorage, signUrl } from '../../src/render/storage/index.js';
import { CaseService, type CaseInput } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { EventQueue, QueueCaseDelivery } from '../../src/service/delivery/index.js';
import { DEFAULT_MAIL_FROM } from '../../src/service/messages/index.js';
import {
  CASE_SIGNED,
  denyRecipient,
  eventCase,
  readSigningSession,
  signRecipient,
  writeSigningEvent,
} from '../../src/service/signing/index.js';
import { DEFAULT_WEBHOOK_SETTINGS, WebhookRepository } from '../../src/service/webhooks/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { startSmsGateway, type SmsGateway } from '../helpers/sms-gateway.js';
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp-server.js';
import { testDir } from '../helpers/test-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Delivery end to end on real parts: PostgreSQL (the outbox, the ledger), Redis (the events and
 * webhook queues), a real SMTP server, a local SMS gateway and a webhook receiver on loopback.
 * Cases are made by CaseService with documents by URL (nothing to render); the schedule runs on
 * a clock the test moves.
 */

const PUBLIC = 'http://docpipe.test';
const SECRET = 'delivery-test-signing-secret';
const DAY = 24 * 3_600_000;

let t: TestDatabase;
let redis: RedisOnly;
let smtp: SmtpTestServer;
let sms: SmsGateway;
let receiver: WebhookReceiver;
let annId: string;

beforeAll(async () => {
  [t, redis, smtp, sms, receiver] = await Promise.all([
    testDatabase(),
    startRedisOnly(),
    startSmtpServer(),
    startSmsGateway(),
    startWebhookReceiver(),
  ]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  annId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
});

afterAll(async () => {
  await Promise.all([t?.close(), redis?.close(), smtp?.close(), sms?.close(), receiver?.close()]);
});

/** A clock the test sets; the schedule and the ledger read it. */
function clock(start = new Date()) {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set: (d: Date) => {
      at = d.getTime();
    },
    add: (ms: number) => {
      at += ms;
    },
  };
}

interface Stack {
  cases: CaseService;
  storage: LocalStorage;
  queue: EventQueue;
  delivery: RunningDelivery;
  time: ReturnType<typeof clock>;
}

/** Inside a test: a lane of Redis, the delivery worker and a case service that awaits delivery. */
async function stack(options: { smtpUrl?: string; now?: Date } = {}): Promise<Stack> {
  const lane = await redis.lane();
  const time = clock(options.now);
  const storage = new LocalStorage(testDir('delivery-storage-'));
  const documentUrl = (key: string, name: string) =>
    signUrl(PUBLIC, key, new Date(Date.now() + 3_600_000), SECRET, name);
  const delivery = await startDelivery({
    db: t.db,
    databaseUrl: t.url,
    redisUrl: redis.url,
    prefix: lane.prefix,
    storage,
    signingSecret: SECRET,
    publicUrl: PUBLIC,
    documentUrl,
    messages: {
      email: { kind: 'smtp', url: options.smtpUrl ?? smtp.url },
      from: DEFAULT_MAIL_FROM,
      attachMaxBytes: 1024 * 1024,
      sms: { url: sms.url, authorization: 'Bearer sms-key' },
      timeZone: 'Europe/Copenhagen',
      timeoutMs: 5_000,
    },
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true, backoffMs: 50 },
    logger: silentLogger,
    now: time.now,
    scheduleEveryMs: 0,
  });
  const queue = new EventQueue(lane.connection, lane.prefix, redis.url);
  onTestFinished(async () => {
    await queue.close();
    await delivery.close();
  });
  const cases = new CaseService({
    db: t.db,
    client: {
      renderDocumentSet: () => Promise.reject(new Error('documents by URL render nothing')),
      render: () => Promise.reject(new Error('documents by URL render nothing')),
    },
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    documentUrl,
    signingSecret: SECRET,
    delivery: new QueueCaseDelivery(queue, 20_000),
  });
  return { cases, delivery, time, queue, storage };
}

const base = (over: Partial<CaseInput> = {}): CaseInput => ({
  title: 'Lease',
  recipients: [{ name: 'Tenant', email: 'tenant@example.com' }],
  documents: [{ name: 'lease', url: 'https://files.example.com/lease.pdf' }],
  settings: { signingSchemas: ['draw'] },
  ...over,
});

const create = (s: Stack, body: CaseInput) =>
  s.cases.createCase('acme', { id: 'k1', userId: annId }, body, {
    publicUrl: PUBLIC,
    now: s.time.now(),
  });

/** Messages a test has looked at and taken: each is taken once, whatever order they came in. */
const taken = new Set<ReceivedMail>();

/**
 * The first message to `address` (matching `match`) not taken before, in arrival order, awaited:
 * every test writes to addresses of its own. A message to another address stays for its test.
 */
async function mailTo(
  address: string,
  match: (m: ReceivedMail) => boolean = () => true,
): Promise<ReceivedMail> {
  for (;;) {
    const found = smtp.messages.find(
      (m) => !taken.has(m) && m.envelope.to.includes(address) && match(m),
    );
    if (found) {
      taken.add(found);
      return found;
    }
    // Woken by the next arrival (nextMessage hands each message out once, in order).
    await smtp.nextMessage();
  }
}

/** The link inside a message's text part. */
function linkIn(text: string | undefined): string {
  const m = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(text ?? '');
  expect(m, `no signing link in: ${text}`).not.toBeNull();
  return m![0];
}

describe('invitations', () => {
  it('go to the first group by e-mail and SMS, each with the link the creator was given; the answer reports them', async () => {
    const s = await stack();
    const before = smtp.messages.length;
    const smsBefore = sms.requests.length;
    const { case: made } = await create(
      s,
      base({
        recipients: [
          { name: 'Tenant', email: 'tenant@example.com', group: 1 },
          { name: 'Guarantor', type: 'sms', phone: '+4512345678', group: 1 },
          { name: 'Landlord', email: 'landlord@example.com', group: 2 },
          { name: 'Copy', email: 'copy@example.com', signing: false, group: 1 },
        ],
      }),
    );
    expect(made.delivery).toMatchObject({
      attempted: true,
      email: { ok: true, attempted: true },
      sms: { ok: true, attempted: true },
      eboks: {
        ok: true,
        attempted: false,
        reason:
          'no recipient the case waits for is reached by e-Boks (e-Boks delivery is not configured)',
      },
      webhook: {
        ok: true,
        attempted: false,
        reason: 'no active webhook receives case.created',
      },
    });
    const mail = smtp.messages.slice(before);
    expect(mail.map((m) => m.envelope.to)).toEqual([['tenant@example.com']]);
    expect(linkIn(mail[0]!.parsed.text)).toBe(made.recipients[0]!.signingUrl);
    // The link works: it opens the tenant's session.
    const token = made.recipients[0]!.signingUrl.split('/').pop()!;
    const session = await readSigningSession(t.db, token, s.time.now());
    expect(session?.recipient.name).toBe('Tenant');
    const texts = sms.requests.slice(smsBefore);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.headers.authorization).toBe('Bearer sms-key');
    expect(texts[0]!.json).toMatchObject({ to: '+4512345678' });
    expect(linkIn((texts[0]!.json as { text: string }).text)).toBe(made.recipients[1]!.signingUrl);
    // Each sent invitation is an event of its own, written with the ledger's row.
    const events = await t.db
      .selectFrom('case_events')
      .select(['trigger', 'payload'])
      .where('case_id', '=', made.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.trigger).sort()).toEqual([
      'case.created',
      'recipient.invited',
      'recipient.invited',
    ]);
    const keys = events.map((e) => {
      const p = e.payload as { trigger: string; case: { _id: string; updatedAt: string } };
      return `${p.trigger}:${p.case._id}:${p.case.updatedAt}`;
    });
    expect(new Set(keys).size).toBe(3);
  });

  it('go to the next group when the first is done, once however often the event is handled', async () => {
    const s = await stack();
    const { case: made } = await create(
      s,
      base({
        recipients: [
          { name: 'First', email: 'first@example.com', group: 1 },
          { name: 'Second', email: 'second@example.com', group: 2 },
        ],
      }),
    );
    const after = smtp.messages.length;
    await signRecipient(
      t.db,
      { token: made.recipients[0]!.signingUrl.split('/').pop()! },
      { method: 'typed', name: 'First' },
      { ip: '127.0.0.1', userAgent: 'test', now: s.time.now() },
    );
    const next = await mailTo('second@example.com');
    expect(linkIn(next.parsed.text)).toBe(made.recipients[1]!.signingUrl);
    // The signature's event is handled to its end (the ledger written after the send).
    const signed = await t.db
      .selectFrom('case_events')
      .select('id')
      .where('case_id', '=', made.id)
      .where('trigger', '=', 'recipient.signed')
      .executeTakeFirstOrThrow();
    expect((await s.queue.outcome(signed.id, 20_000))?.email).toMatchObject({ ok: true });
    // Handled again (a job run twice): nothing more is sent.
    await s.queue.remove(signed.id);
    await s.queue.publish([
      { eventId: signed.id, company: 'acme', caseId: made.id, trigger: 'recipient.signed' },
    ]);
    expect((await s.queue.outcome(signed.id, 20_000))?.email).toMatchObject({ ok: true });
    const sent = await t.db
      .selectFrom('messages')
      .select(['kind', 'status', 'recipient_id'])
      .where('case_id', '=', made.id)
      .execute();
    expect(sent.map((m) => [m.kind, m.status]).sort()).toEqual([
      ['invitation', 'sent'],
      ['invitation', 'sent'],
    ]);
    expect(
      smtp.messages.slice(after).filter((m) => m.envelope.to[0] === 'second@example.com'),
    ).toHaveLength(1);
  });

  it('a server answering 5xx is delivery.email not ok with its answer, and the case is made', async () => {
    const s = await stack();
    smtp.refuse({ code: 550, message: '5.1.1 mailbox unavailable' });
    onTestFinished(() => smtp.refuse(null));
    const { case: made } = await create(s, base());
    expect(made.delivery.email).toEqual({
      ok: false,
      attempted: true,
      error: expect.stringMatching(/^550\b.*mailbox unavailable/),
    });
    const row = await t.db
      .selectFrom('cases')
      .select('state')
      .where('id', '=', made.id)
      .executeTakeFirst();
    expect(row?.state).toBe('open');
    // A permanent refusal is not tried again.
    const ledger = await t.db
      .selectFrom('messages')
      .select(['status', 'next_attempt_at'])
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(ledger).toEqual({ status: 'failed', next_attempt_at: null });
  });

  it('a draft sends nothing, and says so', async () => {
    const s = await stack();
    const before = smtp.messages.length;
    const { case: made } = await create(s, base({ state: 'draft' }));
    expect(made.delivery).toEqual({
      attempted: false,
      email: { ok: true, attempted: false, reason: 'the case is a draft' },
      sms: { ok: true, attempted: false, reason: 'the case is a draft' },
      eboks: { ok: true, attempted: false, reason: 'the case is a draft' },
      webhook: { ok: true, attempted: false, reason: 'no active webhook receives case.created' },
    });
    expect(smtp.messages.length).toBe(before);
  });

  it('an e-mail-only case without webhooks reports no failure: unused channels are not attempted', async () => {
    const s = await stack();
    const { case: made } = await create(
      s,
      base({ recipients: [{ name: 'Only mail', email: 'only-mail@example.com' }] }),
    );
    expect(made.delivery).toEqual({
      attempted: true,
      email: { ok: true, attempted: true, location: expect.any(String) },
      sms: {
        ok: true,
        attempted: false,
        reason: expect.stringContaining('no recipient the case waits for is reached by SMS'),
      },
      eboks: {
        ok: true,
        attempted: false,
        reason: expect.stringContaining('no recipient the case waits for is reached by e-Boks'),
      },
      webhook: { ok: true, attempted: false, reason: 'no active webhook receives case.created' },
    });
    await mailTo('only-mail@example.com');
  });

  it('a draft sent later invites its first group, its links living from the send', async () => {
    const start = new Date('2026-05-01T08:00:00.000Z');
    const s = await stack({ now: start });
    const { case: made } = await create(
      s,
      base({
        state: 'draft',
        recipients: [{ name: 'Drafted', email: 'drafted@example.com' }],
        settings: { signingSchemas: ['draw'], expiresInDays: 10 },
      }),
    );
    s.time.add(20 * 86_400_000);
    const sent = await s.cases.sendCase('acme', made.id, { now: s.time.now() });
    expect(sent.case).toMatchObject({
      id: made.id,
      state: 'open',
      delivery: { email: { ok: true } },
    });
    const mail = await mailTo('drafted@example.com');
    const link = linkIn(mail.parsed.text);
    expect(link).toBe(made.recipients[0]!.signingUrl);
    // Twenty days after creation, the link works: its ten days count from the send.
    const session = await readSigningSession(t.db, link.split('/').pop()!, s.time.now());
    expect(session?.recipient.name).toBe('Drafted');
    const again = await s.cases.sendCase('acme', made.id, { now: s.time.now() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(again).toMatchObject({ slug: 'validation-failed', details: [{ field: 'state' }] });
  });

  it('delivery.webhook reports the first attempt, signed, with the dedup key of the event', async () => {
    const s = await stack();
    const { webhook, secret } = await new WebhookRepository(t.db).add('acme', {
      url: `${receiver.url}/hooks/created`,
      triggers: ['case.created'],
    });
    onTestFinished(() => new WebhookRepository(t.db).remove(webhook.id).then(() => undefined));
    const before = receiver.requests.length;
    const { case: made } = await create(s, base());
    expect(made.delivery.webhook).toEqual({ ok: true, attempted: true });
    const [request] = receiver.requests.slice(before);
    const body = JSON.parse(request!.body) as {
      trigger: string;
      case: { _id: string; updatedAt: string };
    };
    expect(body.trigger).toBe('case.created');
    expect(body.case._id).toBe(made.id);
    const stamp = request!.headers['x-docpipe-timestamp'] as string;
    const expected = createHmac('sha256', secret).update(`${stamp}.${request!.body}`).digest('hex');
    expect(request!.headers['x-docpipe-signature']).toBe(`sha256=${expected}`);
  });
});

describe('the end of a case', () => {
  it('a denial notifies the sender with who denied and why, the URLs of the reason defanged', async () => {
    const s = await stack();
    const { case: made } = await create(
      s,
      base({ recipients: [{ name: 'Nay Sayer', email: 'nay@example.com' }] }),
    );
    const reason = 'Wrong rent, pay at https://evil.com/pay or www.evil.com';
    await denyRecipient(t.db, made.recipients[0]!.signingUrl.split('/').pop()!, reason, {
      ip: '127.0.0.1',
      userAgent: 'test',
      now: s.time.now(),
    });
    const notice = await mailTo('ann@acme.example');
    expect(notice.parsed.text).toContain('Nay Sayer');
    // The signer's URLs arrive defanged: no link in either part, not even by mailparser's linkify.
    expect(notice.parsed.text).toContain(
      'Wrong rent, pay at hxxps[://]evil[.]com/pay or www[.]evil[.]com',
    );
    expect(notice.parsed.textAsHtml).not.toContain('href');
    expect(notice.parsed.html).toContain('hxxps[://]evil[.]com/pay');
    expect(notice.parsed.html).not.toContain('evil.com');
  });

  it('a signed case sends every recipient the signed copy, attached', async () => {
    const s = await stack();
    const { case: made } = await create(
      s,
      base({
        recipients: [
          { name: 'Signer', email: 'signed-signer@example.com' },
          { name: 'Watcher', email: 'signed-copy@example.com', signing: false },
        ],
      }),
    );
    // The sealed PDF as sealing stores it, and its case.signed event as sealing writes it.
    const pdf = Buffer.from('%PDF-1.7\n% sealed\n%%EOF\n');
    await s.storage.put(`cases/acme/${made.id}/sealed-0.pdf`, pdf, 'application/pdf');
    await t.db
      .updateTable('case_documents')
      .set({
        url: null,
        storage_key: `cases/acme/${made.id}/0.pdf`,
        sealed_storage_key: `cases/acme/${made.id}/sealed-0.pdf`,
        sealed_bytes: pdf.length,
      })
      .where('case_id', '=', made.id)
      .execute();
    await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('cases')
        .set({ state: 'signed', sealed_at: s.time.now() })
        .where('id', '=', made.id)
        .execute();
      await writeSigningEvent(
        trx,
        'acme',
        made.id,
        CASE_SIGNED,
        { case: eventCase(made.id, 'Lease', 'signed', null, s.time.now()) },
        s.time.now(),
      );
    });
    for (const to of ['signed-signer@example.com', 'signed-copy@example.com']) {
      // The signer's invitation came first; the copy is the message without a signing link.
      const copy = await mailTo(to, (m) => !/\/sign\//.test(m.parsed.text ?? ''));
      expect(copy.parsed.attachments.map((a) => [a.filename, a.content.equals(pdf)])).toEqual([
        ['lease.pdf', true],
      ]);
    }
  });
});

/**
 * Seals a case as sealing does (its PDF stored, its case.signed event written) and answers the
 * event's id once its handling is done.
 */
async function sealAsSealing(s: Stack, company: string, caseId: string): Promise<string> {
  const pdf = Buffer.from('%PDF-1.7\n% sealed\n%%EOF\n');
  await s.storage.put(`cases/${company}/${caseId}/sealed-0.pdf`, pdf, 'application/pdf');
  await t.db
    .updateTable('case_documents')
    .set({
      url: null,
      storage_key: `cases/${company}/${caseId}/0.pdf`,
      sealed_storage_key: `cases/${company}/${caseId}/sealed-0.pdf`,
      sealed_bytes: pdf.length,
    })
    .where('case_id', '=', caseId)
    .execute();
  await t.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('cases')
      .set({ state: 'signed', sealed_at: s.time.now() })
      .where('id', '=', caseId)
      .execute();
    await writeSigningEvent(
      trx,
      company,
      caseId,
      CASE_SIGNED,
      { case: eventCase(caseId, 'Lease', 'signed', null, s.time.now()) },
      s.time.now(),
    );
  });
  const event = await t.db
    .selectFrom('case_events')
    .select('id')
    .where('case_id', '=', caseId)
    .where('trigger', '=', CASE_SIGNED)
    .executeTakeFirstOrThrow();
  await s.queue.outcome(event.id, 20_000);
  return event.id;
}

describe("the sender's signed copy", () => {
  it('goes to the sender once, in the case language, however often case.signed is handled', async () => {
    const s = await stack();
    await new CompanyRepository(t.db).create({ id: 'copyco', name: 'Copy Co' });
    const bo = await new UserRepository(t.db).add('copyco', {
      email: 'bo@copyco.example',
      name: 'Bo',
    });
    const { case: made } = await s.cases.createCase(
      'copyco',
      { id: 'k2', userId: bo.id },
      base({
        recipients: [{ name: 'Signer', email: 'copyco-signer@example.com' }],
        settings: { signingSchemas: ['draw'], language: 'da' },
      }),
      { publicUrl: PUBLIC, now: s.time.now() },
    );
    const eventId = await sealAsSealing(s, 'copyco', made.id);
    const copy = await mailTo('bo@copyco.example');
    expect(copy.parsed.subject).toBe('Underskrevet: Lease');
    expect(copy.parsed.attachments.map((a) => a.filename)).toEqual(['lease.pdf']);
    // Not "a reply goes to Bo": the message is Bo's own.
    expect(copy.parsed.text).not.toContain('går svaret til');
    await s.queue.remove(eventId);
    await s.queue.publish([{ eventId, company: 'copyco', caseId: made.id, trigger: CASE_SIGNED }]);
    await s.queue.outcome(eventId, 20_000);
    const copies = await t.db
      .selectFrom('messages')
      .select(['addressee', 'status'])
      .where('case_id', '=', made.id)
      .where('kind', '=', 'signed-copy')
      .orderBy('addressee')
      .execute();
    expect(copies.map((m) => m.addressee === 'sender')).toEqual([false, true]);
    expect(copies.every((m) => m.status === 'sent')).toBe(true);
    expect(smtp.messages.filter((m) => m.envelope.to.includes('bo@copyco.example'))).toHaveLength(
      1,
    );
  });

  it('does not go when the company turned it off (docpipe companies set --signed-copy-to-sender off)', async () => {
    const s = await stack();
    const companies = new CompanyRepository(t.db);
    await companies.create({ id: 'quietco', name: 'Quiet Co' });
    expect(
      (await companies.setSettings('quietco', { sendSignedCopyToSender: false }))
        .sendSignedCopyToSender,
    ).toBe(false);
    const cy = await new UserRepository(t.db).add('quietco', {
      email: 'cy@quietco.example',
      name: 'Cy',
    });
    const { case: made } = await s.cases.createCase(
      'quietco',
      { id: 'k3', userId: cy.id },
      base({ recipients: [{ name: 'Signer', email: 'quietco-signer@example.com' }] }),
      { publicUrl: PUBLIC, now: s.time.now() },
    );
    await sealAsSealing(s, 'quietco', made.id);
    await mailTo('quietco-signer@example.com', (m) => !/\/sign\//.test(m.parsed.text ?? ''));
    const copies = await t.db
      .selectFrom('messages')
      .select('addressee')
      .where('case_id', '=', made.id)
      .where('kind', '=', 'signed-copy')
      .execute();
    expect(copies.map((m) => m.addressee)).toHaveLength(1);
    expect(copies[0]!.addressee).not.toBe('sender');
  });
});

/** The bodies of the receiver's requests to `path`, awaited until `count` have come. */
async function bodiesTo(path: string, count: number): Promise<Record<string, unknown>[]> {
  for (;;) {
    const mine = receiver.requests.filter((r) => r.url === path);
    if (mine.length >= count) return mine.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    await receiver.next();
  }
}

describe('case.deleted', () => {
  it("reaches the webhooks after the case's rows are gone, signed, with the case as it was and its own dedup key", async () => {
    const s = await stack();
    const { webhook, secret } = await new WebhookRepository(t.db).add('acme', {
      url: `${receiver.url}/hooks/deleted`,
      triggers: ['case.deleted'],
    });
    onTestFinished(() => new WebhookRepository(t.db).remove(webhook.id).then(() => undefined));
    const { case: made } = await create(
      s,
      base({
        referenceId: 'crm-deleted-1',
        recipients: [{ name: 'Gone', email: 'deleted-signer@example.com' }],
      }),
    );
    const before = (await s.cases.getCase('acme', made.id)).updatedAt;
    expect(await s.cases.deleteCase('acme', made.id)).toEqual({
      acknowledged: true,
      deletedCount: 1,
    });
    const [body] = await bodiesTo('/hooks/deleted', 1);
    const request = receiver.requests.find((r) => r.url === '/hooks/deleted')!;
    expect(request.headers['x-docpipe-event']).toBe('case.deleted');
    const stamp = request.headers['x-docpipe-timestamp'] as string;
    const expected = createHmac('sha256', secret).update(`${stamp}.${request.body}`).digest('hex');
    expect(request.headers['x-docpipe-signature']).toBe(`sha256=${expected}`);
    const deleted = body as {
      trigger: string;
      case: { _id: string; updatedAt: string; deletedAt: string; recipients: unknown[] };
    };
    expect(deleted).toMatchObject({
      trigger: 'case.deleted',
      case: {
        _id: made.id,
        title: 'Lease',
        state: 'open',
        referenceId: 'crm-deleted-1',
        recipients: [{ name: 'Gone', status: 'pending' }],
      },
    });
    // trigger:_id:updatedAt is new: later than every earlier event of the case.
    expect(deleted.case.deletedAt).toBe(deleted.case.updatedAt);
    expect(Date.parse(deleted.case.updatedAt)).toBeGreaterThan(Date.parse(before));
    const left = await t.db
      .selectFrom('cases')
      .select('id')
      .where('id', '=', made.id)
      .executeTakeFirst();
    expect(left).toBeUndefined();
  });
});

describe('one case view in every event and the read', () => {
  it("referenceId, every status, a signer's time, method and ip, a denial's reason and ip, in every event and in the read", async () => {
    const s = await stack();
    const { webhook } = await new WebhookRepository(t.db).add('acme', {
      url: `${receiver.url}/hooks/view`,
      triggers: ['*'],
    });
    onTestFinished(() => new WebhookRepository(t.db).remove(webhook.id).then(() => undefined));
    const { case: made } = await create(
      s,
      base({
        referenceId: 'crm-view-7',
        recipients: [
          { name: 'First', email: 'view-first@example.com', group: 1 },
          { name: 'Second', email: 'view-second@example.com', group: 2 },
        ],
      }),
    );
    await signRecipient(
      t.db,
      { token: made.recipients[0]!.signingUrl.split('/').pop()! },
      { method: 'typed', name: 'First' },
      { ip: '198.51.100.7', userAgent: 'test', now: s.time.now() },
    );
    await mailTo('view-second@example.com');
    s.time.add(1000);
    await denyRecipient(t.db, made.recipients[1]!.signingUrl.split('/').pop()!, 'Wrong rent', {
      ip: '203.0.113.9',
      userAgent: 'test',
      now: s.time.now(),
    });
    // case.created, recipient.invited (2), recipient.signed, case.denied.
    const bodies = (await bodiesTo('/hooks/view', 5)) as {
      trigger: string;
      case: { referenceId: string; recipients: Record<string, unknown>[] };
    }[];
    expect(bodies.map((b) => b.trigger).sort()).toEqual([
      'case.created',
      'case.denied',
      'recipient.invited',
      'recipient.invited',
      'recipient.signed',
    ]);
    for (const b of bodies)
      expect([b.trigger, b.case.referenceId]).toEqual([b.trigger, 'crm-view-7']);
    const of = (trigger: string) => bodies.find((b) => b.trigger === trigger)!.case.recipients;
    expect(of('recipient.signed')).toMatchObject([
      { name: 'First', status: 'signed', method: 'typed', ip: '198.51.100.7' },
      { name: 'Second', status: 'pending' },
    ]);
    expect(of('recipient.signed')[1]).not.toHaveProperty('ip');
    const denied = of('case.denied');
    expect(denied).toMatchObject([
      { name: 'First', status: 'signed', method: 'typed', ip: '198.51.100.7' },
      { name: 'Second', status: 'denied', denialReason: 'Wrong rent', ip: '203.0.113.9' },
    ]);
    // The read says the same of every recipient as the last event did.
    const read = await s.cases.getCase('acme', made.id);
    expect(read.referenceId).toBe('crm-view-7');
    expect(read.recipients).toEqual(denied);
  });
});

describe('contacts', () => {
  it('keeps each recipient once per e-mail address, the last name given', async () => {
    const s = await stack();
    await create(s, base({ recipients: [{ name: 'Bo', email: 'Bo@Example.com' }] }));
    await create(s, base({ recipients: [{ name: 'Bo Berg', email: 'bo@example.com' }] }));
    const rows = await t.db
      .selectFrom('contacts')
      .select(['name', 'email'])
      .where('company_id', '=', 'acme')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'bo@example.com'))
      .execute();
    expect(rows).toEqual([{ name: 'Bo Berg', email: 'Bo@Example.com' }]);
  });
});

describe('the schedule on a test clock', () => {
  it('reminds the waiting signers daysBetween apart, amount times, and then no more', async () => {
    const start = new Date('2026-03-02T09:00:00.000Z');
    const s = await stack({ now: start });
    const { case: made } = await create(
      s,
      base({
        recipients: [{ name: 'Slow', email: 'slow@example.com' }],
        settings: {
          signingSchemas: ['draw'],
          expiresInDays: 30,
          reminders: { send: true, amount: 2, daysBetween: 3 },
        },
      }),
    );
    const reminders = () =>
      t.db
        .selectFrom('messages')
        .select(['sequence', 'status'])
        .where('case_id', '=', made.id)
        .where('kind', '=', 'reminder')
        .orderBy('sequence')
        .execute();
    s.time.add(2 * DAY);
    expect((await s.delivery.worker.tick())?.reminded).toBe(0);
    s.time.add(1 * DAY);
    expect((await s.delivery.worker.tick())?.reminded).toBe(1);
    const first = await mailTo('slow@example.com', (m) =>
      /remind|påmind/i.test(m.parsed.subject ?? ''),
    );
    expect(linkIn(first.parsed.text)).toBe(made.recipients[0]!.signingUrl);
    // The same moment again: the reminder was taken, nothing more.
    expect((await s.delivery.worker.tick())?.reminded).toBe(0);
    s.time.add(3 * DAY);
    expect((await s.delivery.worker.tick())?.reminded).toBe(1);
    s.time.add(10 * DAY);
    expect((await s.delivery.worker.tick())?.reminded).toBe(0);
    expect(await reminders()).toEqual([
      { sequence: 1, status: 'sent' },
      { sequence: 2, status: 'sent' },
    ]);
  });

  it('expires a case past its days: state, event, and its links stop working', async () => {
    const start = new Date('2026-04-01T09:00:00.000Z');
    const s = await stack({ now: start });
    const { case: made } = await create(
      s,
      base({ settings: { signingSchemas: ['draw'], expiresInDays: 5 } }),
    );
    const token = made.recipients[0]!.signingUrl.split('/').pop()!;
    const state = async () =>
      await t.db
        .selectFrom('cases')
        .select(['state', 'expired_at'])
        .where('id', '=', made.id)
        .executeTakeFirstOrThrow();
    s.time.add(5 * DAY - 60_000);
    await s.delivery.worker.tick();
    expect(await state()).toEqual({ state: 'open', expired_at: null });
    s.time.add(60_000);
    expect((await s.delivery.worker.tick())?.expired).toBeGreaterThanOrEqual(1);
    expect(await state()).toEqual({ state: 'expired', expired_at: s.time.now() });
    const events = await t.db
      .selectFrom('case_events')
      .select('trigger')
      .where('case_id', '=', made.id)
      .where('trigger', '=', 'case.expired')
      .execute();
    expect(events).toHaveLength(1);
    expect(await readSigningSession(t.db, token, s.time.now())).toBeUndefined();
    // A second tick expires it no more.
    expect((await s.delivery.worker.tick())?.expired).toBe(0);
  });

  it('sends a message that failed for a passing reason again when its next try is due', async () => {
    const s = await stack();
    smtp.refuse({ code: 451, message: '4.3.0 try again later' });
    onTestFinished(() => smtp.refuse(null));
    const { case: made } = await create(
      s,
      base({ recipients: [{ name: 'Later', email: 'later@example.com' }] }),
    );
    expect(made.delivery.email).toMatchObject({ ok: false, error: expect.stringMatching(/^451/) });
    smtp.refuse(null);
    expect((await s.delivery.worker.tick())?.retried).toBe(0);
    s.time.add(61_000);
    expect((await s.delivery.worker.tick())?.retried).toBe(1);
    const mail = await mailTo('later@example.com');
    expect(linkIn(mail.parsed.text)).toBe(made.recipients[0]!.signingUrl);
  });
});

describe('events handled in a batch', () => {
  it('invite every signer of many cases made at once, each once, each invitation its own recipient.invited with a dedup key of its own', async () => {
    const s = await stack();
    const n = 12;
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        create(
          s,
          base({
            title: `Batch ${i}`,
            recipients: [
              { name: `First ${i}`, email: `batch-first-${i}@example.com` },
              { name: `Second ${i}`, email: `batch-second-${i}@example.com` },
            ],
          }),
        ),
      ),
    );
    for (const { case: c } of made)
      expect(c.delivery).toMatchObject({ email: { ok: true, attempted: true } });
    for (let i = 0; i < n; i++) {
      const first = await mailTo(`batch-first-${i}@example.com`);
      const second = await mailTo(`batch-second-${i}@example.com`);
      expect(linkIn(first.parsed.text)).toBe(made[i]!.case.recipients[0]!.signingUrl);
      expect(linkIn(second.parsed.text)).toBe(made[i]!.case.recipients[1]!.signingUrl);
    }
    const ids = made.map((m) => m.case.id);
    const ledger = await t.db
      .selectFrom('messages')
      .select(['case_id', 'recipient_id', 'status', 'attempts'])
      .where('case_id', 'in', ids)
      .execute();
    expect(ledger).toHaveLength(2 * n);
    expect(ledger.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    const events = await t.db
      .selectFrom('case_events')
      .select(['case_id', 'payload'])
      .where('case_id', 'in', ids)
      .where('trigger', '=', 'recipient.invited')
      .execute();
    expect(events).toHaveLength(2 * n);
    for (const id of ids) {
      const mine = events
        .filter((e) => e.case_id === id)
        .map(
          (e) =>
            e.payload as {
              recipient: { id: string };
              case: { _id: string; updatedAt: string };
            },
        );
      const c = made.find((m) => m.case.id === id)!.case;
      expect(mine.map((p) => p.recipient.id).sort()).toEqual(c.recipients.map((r) => r.id).sort());
      expect(mine.every((p) => p.case._id === id)).toBe(true);
      // Two events of one case: two updatedAt, so two deduplication keys.
      expect(new Set(mine.map((p) => p.case.updatedAt)).size).toBe(2);
    }
    // Nobody else was written to twice.
    for (let i = 0; i < n; i++)
      expect(
        smtp.messages.filter((m) => m.envelope.to.includes(`batch-first-${i}@example.com`)),
      ).toHaveLength(1);
  });
});
