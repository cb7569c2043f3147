import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CompanyRepository } from '../../src/service/companies/index.js';
import {
  ReplayRefusedError,
  WebhookQueue,
  WebhookRepository,
  WEBHOOK_QUEUE,
  WebhookWorker,
  attemptDelivery,
  dispatchEvent,
  replayDelivery,
  type WebhookDeps,
  type WebhookEvent,
  type WebhookSettings,
} from '../../src/service/webhooks/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { waitUntil } from '../helpers/wait.js';
import {
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

/**
 * Webhook delivery against the real parts: PostgreSQL (the deliveries and their runs), Redis
 * (the retries as delayed jobs on the webhooks queue) and a receiver on loopback. Private
 * destinations are allowed where the receiver is the destination, and not where the refusal is
 * the point.
 */

let t: TestDatabase;
let redis: RedisOnly;
let folderId: string;

beforeAll(async () => {
  t = await testDatabase();
  redis = await startRedisOnly();
  const { defaultFolder } = await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme' });
  folderId = defaultFolder.id;
  await new CompanyRepository(t.db).create({ id: 'beta', name: 'Beta' });
});
afterAll(async () => {
  await t?.close();
  await redis?.close();
});

const SETTINGS: WebhookSettings = {
  backoffMs: 50,
  retryForMs: 60_000,
  allowPrivate: true,
  timeoutMs: 5_000,
  concurrency: 4,
};

function deps(settings: Partial<WebhookSettings> = {}): WebhookDeps {
  return { db: t.db, settings: { ...SETTINGS, ...settings } };
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  onTestFinished(() => r.close());
  return r;
}

/** A webhook of acme's; removed when the test ends, so that each test's events reach its own. */
async function webhook(url: string, options: { triggers?: string[]; headers?: string[] } = {}) {
  const added = await new WebhookRepository(t.db).add('acme', {
    url,
    triggers: options.triggers ?? ['case.created'],
    headers: options.headers,
  });
  onTestFinished(() => new WebhookRepository(t.db).remove(added.webhook.id).then(() => undefined));
  return added;
}

/**
 * A case and its case.created event, written in one transaction as case-writer.ts writes them,
 * and the event as its processing reads it back from case_events.
 */
async function caseCreated(): Promise<WebhookEvent> {
  const id = randomUUID();
  const now = new Date();
  await t.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cases')
      .values({
        company_id: 'acme',
        id,
        title: 'Lease',
        state: 'open',
        folder_id: folderId,
        reference_id: null,
        settings: JSON.stringify({}),
        language: 'en',
        signing_schemas: JSON.stringify(['draw']),
        message_template_id: null,
        expires_at: new Date(now.getTime() + 30 * 86_400_000),
        active_group: 1,
        sender_id: null,
        sender_name: 'Ann',
        sender_email: 'ann@acme.example',
        created_by_key: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto('case_events')
      .values({
        company_id: 'acme',
        case_id: id,
        trigger: 'case.created',
        payload: JSON.stringify({
          trigger: 'case.created',
          case: {
            _id: id,
            title: 'Lease «æøå»',
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          },
        }),
        created_at: now,
      })
      .execute();
  });
  const row = await t.db
    .selectFrom('case_events')
    .selectAll()
    .where('case_id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    company: row.company_id,
    caseId: row.case_id,
    trigger: row.trigger,
    payload: row.payload,
  };
}

/** The signature check a receiver makes, written here from the documented scheme. */
function signedBy(secret: string, r: ReceivedRequest): boolean {
  const timestamp = String(r.headers['x-docpipe-timestamp']);
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(r.raw).digest('hex')}`,
  );
  const given = Buffer.from(String(r.headers['x-docpipe-signature']));
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return fresh && expected.length === given.length && timingSafeEqual(expected, given);
}

async function delivery(id: string) {
  return t.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function deliveriesOf(eventId: string) {
  return t.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .execute();
}

describe('webhook delivery', () => {
  it('retries a receiver that fails twice, which then gets three identical signed bodies with one dedup key', async () => {
    const r = await receiver();
    r.script(500, 500, 200);
    const { webhook: hook, secret } = await webhook(`${r.url}/hook?token=abc`, {
      headers: ['X-Key: k1'],
    });
    const lane = await redis.lane();
    const worker = await WebhookWorker.start({
      redisUrl: redis.url,
      prefix: lane.prefix,
      deps: deps(),
    });
    onTestFinished(() => worker.close());
    const queue = new WebhookQueue(lane.connection, lane.prefix);
    onTestFinished(() => queue.close());
    const event = await caseCreated();

    const outcome = await dispatchEvent({ ...deps(), retries: queue }, event);
    expect(outcome).toEqual({
      deliveries: 1,
      result: { ok: false, attempted: true, error: `${r.url}/hook: 500 Internal Server Error` },
    });
    const requests = await r.waitFor(3);
    const [d] = await deliveriesOf(event.id);
    await waitUntil(
      async () => (await delivery(d!.id)).status === 'succeeded',
      10_000,
      'succeeded',
    );

    const body = JSON.stringify(event.payload);
    for (const req of requests) {
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/hook?token=abc');
      expect(req.body).toBe(body);
      expect(signedBy(secret, req)).toBe(true);
      expect(req.headers).toMatchObject({
        'content-type': 'application/json',
        'x-key': 'k1',
        'x-docpipe-event': 'case.created',
        'x-docpipe-delivery': d!.id,
      });
      expect(req.headers['user-agent']).toMatch(/^docpipe\/\d+\.\d+\.\d+/);
      const p = JSON.parse(req.body) as {
        trigger: string;
        case: { _id: string; updatedAt: string };
      };
      expect(`${p.trigger}:${p.case._id}:${p.case.updatedAt}`).toBe(
        `case.created:${event.caseId}:${(event.payload as { case: { updatedAt: string } }).case.updatedAt}`,
      );
    }
    expect(requests.map((q) => q.body)).toEqual([body, body, body]);

    const runs = await new WebhookRepository(t.db).runs(hook.id);
    expect(runs.map((run) => [run.attempt, run.status, run.error, run.deliveryStatus])).toEqual([
      [3, 200, null, 'succeeded'],
      [2, 500, '500 Internal Server Error', 'succeeded'],
      [1, 500, '500 Internal Server Error', 'succeeded'],
    ]);
    expect(await delivery(d!.id)).toMatchObject({
      attempts: 3,
      last_status: 200,
      next_attempt_at: null,
    });
  });

  it('makes one delivery per event and webhook, and never sends one that succeeded again', async () => {
    const r = await receiver();
    await webhook(`${r.url}/once`);
    const event = await caseCreated();
    expect(await dispatchEvent(deps(), event)).toEqual({
      deliveries: 1,
      result: { ok: true, attempted: true },
    });
    expect(await dispatchEvent(deps(), event)).toEqual({
      deliveries: 0,
      result: { ok: true, attempted: true },
    });
    const [d] = await deliveriesOf(event.id);
    expect((await deliveriesOf(event.id)).length).toBe(1);
    const again = await attemptDelivery(deps(), d!.id);
    expect(again).toMatchObject({ attempted: false, skipped: 'the delivery is succeeded' });
    expect(r.requests.length).toBe(1);
  });

  it('lets two workers that take the same try send it once', async () => {
    const r = await receiver();
    r.setDefault({ status: 200, delayMs: 200 });
    await webhook(`${r.url}/race`);
    const event = await caseCreated();
    // A webhook added only now gets no delivery of an event dispatched before: make it by hand.
    const made = await t.db
      .insertInto('webhook_deliveries')
      .values({
        company_id: 'acme',
        webhook_id: (await new WebhookRepository(t.db).list('acme')).at(-1)!.id,
        event_id: event.id,
        case_id: event.caseId,
        trigger: 'case.created',
        body: '{}',
        next_attempt_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const both = await Promise.all([
      attemptDelivery(deps(), made.id, { attempt: 1 }),
      attemptDelivery(deps(), made.id, { attempt: 1 }),
    ]);
    expect(both.filter((o) => o.attempted).length).toBe(1);
    expect(both.filter((o) => o.ok).length).toBe(1);
    expect(r.requests.length).toBe(1);
  });

  it('gives no event to a disabled webhook, and fails a pending delivery of one without a request', async () => {
    const r = await receiver();
    const { webhook: hook } = await webhook(`${r.url}/off`);
    const event = await caseCreated();
    r.setDefault(500);
    const first = await dispatchEvent(deps(), event);
    expect(first.result).toEqual({
      ok: false,
      attempted: true,
      error: `${r.url}/off: 500 Internal Server Error`,
    });
    await new WebhookRepository(t.db).setActive(hook.id, false);
    const [d] = await deliveriesOf(event.id);
    expect(await attemptDelivery(deps(), d!.id)).toMatchObject({
      attempted: true,
      attempt: 2,
      ok: false,
      error: 'not sent: the webhook is disabled',
      deliveryStatus: 'failed',
    });
    expect(r.requests.length).toBe(1);
    expect(await dispatchEvent(deps(), await caseCreated())).toEqual({
      deliveries: 0,
      result: { ok: true, attempted: false, reason: 'no active webhook receives case.created' },
    });
  });

  it('gives up after the retry window, and a replay sends the same body with a new signature', async () => {
    const r = await receiver();
    r.script(503);
    const { secret } = await webhook(`${r.url}/replay`);
    const event = await caseCreated();
    const first = await dispatchEvent(deps({ retryForMs: 1 }), event);
    expect(first.result.error).toBe(`${r.url}/replay: 503 Service Unavailable`);
    const [d] = await deliveriesOf(event.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_status: 503 });

    const replayed = await replayDelivery(deps(), d!.id);
    expect(replayed).toMatchObject({ attempted: true, attempt: 2, ok: true, status: 200 });
    await expect(replayDelivery(deps(), d!.id)).rejects.toThrow(ReplayRefusedError);
    const forced = await replayDelivery(deps(), d!.id, { force: true });
    expect(forced).toMatchObject({ attempt: 3, ok: true, deliveryStatus: 'succeeded' });
    const requests = await r.waitFor(3);
    expect(new Set(requests.map((q) => q.body)).size).toBe(1);
    for (const q of requests) expect(signedBy(secret, q)).toBe(true);
    await expect(replayDelivery(deps(), randomUUID())).rejects.toThrow(
      /^delivery .* does not exist$/,
    );
    await expect(replayDelivery(deps(), d!.id, { company: 'beta', force: true })).rejects.toThrow(
      `delivery ${d!.id} does not exist in company beta`,
    );
  });

  it('sends a due delivery whose job was lost: the worker sweep finds it', async () => {
    const r = await receiver();
    r.setDefault(500);
    await webhook(`${r.url}/swept`);
    const event = await caseCreated();
    await dispatchEvent(deps(), event); // no queue: the retry is not put anywhere
    const [d] = await deliveriesOf(event.id);
    expect(d!.status).toBe('pending');
    r.setDefault(200);
    await t.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: new Date(Date.now() - 120_000) })
      .where('id', '=', d!.id)
      .execute();
    const lane = await redis.lane();
    const worker = await WebhookWorker.start({
      redisUrl: redis.url,
      prefix: lane.prefix,
      deps: deps(),
    });
    onTestFinished(() => worker.close());
    await r.waitFor(2);
    await waitUntil(async () => (await delivery(d!.id)).status === 'succeeded', 10_000, 'swept');
  });
  it('queues a retry once, whoever adds it (the failed try and the sweep)', async () => {
    const lane = await redis.lane();
    const queue = new WebhookQueue(lane.connection, lane.prefix);
    onTestFinished(() => queue.close());
    const id = randomUUID();
    await queue.scheduleRetry(id, 2, 60_000);
    await queue.scheduleRetry(id, 2, 60_000);
    await queue.add({ deliveryId: id, attempt: 2 });
    await queue.scheduleRetry(id, 3, 60_000);
    const look = new Queue(WEBHOOK_QUEUE, { connection: lane.connection, prefix: lane.prefix });
    onTestFinished(() => look.close());
    const jobs = await look.getJobs(['delayed', 'waiting']);
    expect(jobs.map((j) => j.id).sort()).toEqual([`${id}-2`, `${id}-3`]);
  });

  it('connects a named host to the address it resolved to once, the Host header still the name', async () => {
    const r = await receiver();
    await webhook(`http://hooks.test:${r.port}/named`);
    const asked: string[] = [];
    const lookup = (host: string) => {
      asked.push(host);
      return Promise.resolve([{ address: '127.0.0.1', family: 4 as const }]);
    };
    const out = await dispatchEvent({ ...deps(), lookup }, await caseCreated());
    expect(out.result).toEqual({ ok: true, attempted: true });
    expect(asked).toEqual(['hooks.test']);
    const [req] = await r.waitFor(1);
    expect(req!.headers.host).toBe(`hooks.test:${r.port}`);
    expect(req!.url).toBe('/named');
  });
});

describe('stored headers', () => {
  it('fails at once, naming the header, a delivery whose stored header cannot be sent; one the new rules refuse but Node sends still goes', async () => {
    const r = await receiver();
    const broken = await webhook(`${r.url}/broken`);
    const older = await webhook(`${r.url}/older`);
    // Written as webhooks added before their headers were checked as now are stored.
    const store = (id: string, headers: Record<string, string>) =>
      t.db
        .updateTable('webhooks')
        .set({ headers: JSON.stringify(headers) })
        .where('id', '=', id)
        .execute();
    await store(broken.webhook.id, { 'X-Key': 'k1', 'X-City': 'Łódź' });
    await store(older.webhook.id, { 'X-Docpipe-Tenant': 'acme', 'X-Name': 'Søren' });
    const event = await caseCreated();

    const out = await dispatchEvent(deps(), event);
    const error =
      'not sent: a header of the webhook cannot be sent (X-City\'s value holds "Ł" (U+0141): a header value is printable ASCII; percent-encode or base64 the text); remove the webhook and add it again without it';
    expect(out).toEqual({
      deliveries: 2,
      result: { ok: false, attempted: true, error: `${r.url}/broken: ${error}` },
    });
    const [req] = await r.waitFor(1);
    expect(req!.url).toBe('/older');
    expect(req!.headers['x-docpipe-tenant']).toBe('acme');
    // Which bytes carry the ø is Node's choice (a receiver may read them otherwise): the reason
    // a new webhook's values must be ASCII.
    expect(req!.headers['x-name']).toMatch(/^S.+ren$/);

    const failed = (await deliveriesOf(event.id)).find((d) => d.webhook_id === broken.webhook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
    expect(failed!.last_error).toBe(error);
    expect(r.requests.map((q) => q.url)).toEqual(['/older']);
  });
});

describe('bounded attempts', () => {
  it('costs a slow receiver one attempt of the timeout, and retries it', async () => {
    const r = await receiver();
    r.setDefault({ status: 200, delayMs: 30_000 });
    await webhook(`${r.url}/slow`);
    const event = await caseCreated();
    // The receiver answers after 30 s: the attempt ending with the timeout's own error, the
    // answer never recorded, is the bound (how long it took is the benchmark's to say).
    const out = await dispatchEvent(deps({ timeoutMs: 300 }), event);
    expect(out.result.error).toBe(`${r.url}/slow: timed out: no answer within 0.3 s`);
    const [d] = await deliveriesOf(event.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
    const [run] = await new WebhookRepository(t.db).runs(d!.webhook_id);
    expect(run!.durationMs).toBeGreaterThanOrEqual(290);
    expect(run!.error).toBe('timed out: no answer within 0.3 s');
  });

  it('reads a huge answer up to its cap and keeps its first kilobyte', async () => {
    const r = await receiver();
    r.setDefault({ status: 200, bodyBytes: 200 * 1024 * 1024 });
    await webhook(`${r.url}/huge`);
    const event = await caseCreated();
    const out = await dispatchEvent(deps(), event);
    expect(out.result).toEqual({ ok: true, attempted: true });
    const [d] = await deliveriesOf(event.id);
    const [run] = await new WebhookRepository(t.db).runs(d!.webhook_id);
    expect(run!.response).toBe('x'.repeat(1024));
  });

  it('does not follow a redirect: the attempt fails saying where it pointed', async () => {
    const r = await receiver();
    r.setDefault({ status: 302, headers: { Location: `${r.url}/elsewhere` } });
    await webhook(`${r.url}/moved`);
    const out = await dispatchEvent(deps(), await caseCreated());
    expect(out.result.error).toBe(
      `${r.url}/moved: 302 Found: redirects are not followed (Location: ${r.url}/elsewhere)`,
    );
    expect(r.requests.map((q) => q.url)).toEqual(['/moved']);
  });
});

describe('private destinations', () => {
  it('refuses loopback, private, link-local and mapped addresses, and names that resolve to them, without retrying', async () => {
    const r = await receiver();
    const urls = [
      `${r.url}/loop`,
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      `http://[::ffff:127.0.0.1]:${r.port}/mapped`,
      `http://localhost:${r.port}/named`,
    ];
    for (const url of urls) await webhook(url);
    const event = await caseCreated();
    const out = await dispatchEvent(deps({ allowPrivate: false }), event);
    expect(out.deliveries).toBe(5);
    expect(out.result.ok).toBe(false);
    const hooks = await new WebhookRepository(t.db).list('acme');
    const byUrl = new Map(hooks.map((h) => [h.id, h.url]));
    const errors = Object.fromEntries(
      (await deliveriesOf(event.id)).map((d) => [
        byUrl.get(d.webhook_id),
        [d.status, d.last_error],
      ]),
    );
    const advice = 'set DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true to allow private destinations';
    expect(errors).toEqual({
      [`${r.url}/loop`]: ['failed', `refused: 127.0.0.1 is a loopback address; ${advice}`],
      'http://10.1.2.3/hook': ['failed', `refused: 10.1.2.3 is a private address; ${advice}`],
      'http://169.254.169.254/latest/meta-data': [
        'failed',
        `refused: 169.254.169.254 is a link-local address; ${advice}`,
      ],
      [`http://[::ffff:7f00:1]:${r.port}/mapped`]: [
        'failed',
        `refused: ::ffff:7f00:1 is a loopback address; ${advice}`,
      ],
      [`http://localhost:${r.port}/named`]: [
        'failed',
        expect.stringMatching(
          new RegExp(
            `^refused: (127\\.0\\.0\\.1|::1) is a loopback address \\(localhost resolves to it\\); ${advice}$`,
          ),
        ),
      ],
    });
    expect(r.requests.length).toBe(0);
  });
});
