import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startDelivery } from '../../src/app/wiring/delivery.js';
import { silentLogger } from '../../src/base/log/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { EVENTS_QUEUE, EventQueue, eventJobId } from '../../src/service/delivery/index.js';
import { DEFAULT_MAIL_FROM } from '../../src/service/messages/index.js';
import { DEFAULT_WEBHOOK_SETTINGS, WebhookRepository } from '../../src/service/webhooks/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';
import { sourceChildArgs, sourceModule } from '../helpers/source-child.js';
import { testDir } from '../helpers/test-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The outbox loses no event whatever dies where: a relay process killed (SIGKILL) after it put
 * an event on the queue and before it marked the event published, and a server that committed a
 * case and died before handing its event on. Real PostgreSQL, Redis, SMTP and webhook receiver.
 */

const SECRET = 'outbox-crash-test-secret';
const PUBLIC = 'http://docpipe.test';

let t: TestDatabase;
let redis: RedisOnly;
let smtp: SmtpTestServer;
let receiver: WebhookReceiver;
let annId: string;

beforeAll(async () => {
  [t, redis, smtp, receiver] = await Promise.all([
    testDatabase(),
    startRedisOnly(),
    startSmtpServer(),
    startWebhookReceiver(),
  ]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  annId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  await new WebhookRepository(t.db).add('acme', {
    url: `${receiver.url}/hook`,
    triggers: ['case.created'],
  });
});

afterAll(async () => {
  await Promise.all([t?.close(), redis?.close(), smtp?.close(), receiver?.close()]);
});

/** A case committed with its event, and nothing handed to delivery (no delivery wired). */
async function committedCase(email: string): Promise<string> {
  const cases = new CaseService({
    db: t.db,
    client: {
      render: () => Promise.reject(new Error('nothing to render')),
      renderDocumentSet: () => Promise.reject(new Error('nothing to render')),
    },
    storage: new LocalStorage(testDir('outbox-storage-')),
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
    signingSecret: SECRET,
  });
  const { case: made } = await cases.createCase(
    'acme',
    { id: 'k1', userId: annId },
    {
      title: 'Crash',
      recipients: [{ name: 'Signer', email }],
      documents: [{ name: 'a', url: 'https://files.example.com/a.pdf' }],
      settings: { signingSchemas: ['draw'] },
    },
    { publicUrl: PUBLIC },
  );
  return made.id;
}

async function eventOf(caseId: string) {
  return t.db
    .selectFrom('case_events')
    .select(['id', 'published_at'])
    .where('case_id', '=', caseId)
    .where('trigger', '=', 'case.created')
    .executeTakeFirstOrThrow();
}

/** The delivery worker of this process, on the lane's prefix. */
async function worker(prefix: string) {
  const delivery = await startDelivery({
    db: t.db,
    databaseUrl: t.url,
    redisUrl: redis.url,
    prefix,
    storage: new LocalStorage(testDir('outbox-storage-')),
    signingSecret: SECRET,
    publicUrl: PUBLIC,
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
    messages: {
      email: { kind: 'smtp', url: smtp.url },
      from: DEFAULT_MAIL_FROM,
      attachMaxBytes: 0,
      timeZone: 'Europe/Copenhagen',
      timeoutMs: 5_000,
    },
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true },
    logger: silentLogger,
    scheduleEveryMs: 0,
  });
  onTestFinished(() => delivery.close());
  return delivery;
}

/** Requests to the receiver about `caseId`, once `count` of them have come. */
async function deliveriesOf(caseId: string, count: number) {
  for (let seen = count; ; seen++) {
    const all = await receiver.waitFor(seen);
    const mine = all.filter((r) => r.body.includes(caseId));
    if (mine.length >= count) return mine;
  }
}

describe('the outbox', () => {
  it('loses nothing when the relay dies after queueing and before marking, and handles it once', async () => {
    const lane = await redis.lane();
    const caseId = await committedCase('killed-relay@example.com');
    const event = await eventOf(caseId);
    // A relay in a process of its own, killed exactly between the queue's add and the commit.
    const child = spawn(
      process.execPath,
      [
        ...sourceChildArgs,
        '--input-type=module',
        '-e',
        `const { openDatabase } = await import(${JSON.stringify(sourceModule('src/platform/postgres/index.ts'))});
         const { createRedis } = await import(${JSON.stringify(sourceModule('src/platform/redis/index.ts'))});
         const { EventQueue, OutboxRelay } = await import(${JSON.stringify(sourceModule('src/service/delivery/index.ts'))});
         const db = openDatabase(${JSON.stringify(t.url)});
         const queue = new EventQueue(createRedis(${JSON.stringify(redis.url)}, 'worker'), ${JSON.stringify(lane.prefix)});
         await OutboxRelay.start({
           db, databaseUrl: ${JSON.stringify(t.url)}, queue,
           afterPublish: (ids) => { console.log('queued ' + ids.join(',')); process.kill(process.pid, 'SIGKILL'); },
         });
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    expect(exit, out).toBe('SIGKILL');
    expect(out).toContain(event.id);
    // The job is on the queue, and the event is still unpublished: its transaction died.
    const events = new Queue(EVENTS_QUEUE, { connection: lane.connection, prefix: lane.prefix });
    onTestFinished(() => events.close());
    expect(await events.getJob(eventJobId(event.id))).toBeDefined();
    expect((await eventOf(caseId)).published_at).toBeNull();

    // A worker starts: its relay queues the event again (one job), marks it, and it is handled once.
    const before = receiver.requests.length;
    const delivery = await worker(lane.prefix);
    await delivery.worker.relayNow();
    const handled = new EventQueue(lane.connection, lane.prefix, redis.url);
    onTestFinished(() => handled.close());
    const outcome = await handled.outcome(event.id, 30_000);
    expect(outcome).toMatchObject({ email: { ok: true }, webhook: { ok: true } });
    const mail = await mailTo('killed-relay@example.com');
    expect(mail.parsed.subject).toBeTruthy();
    const [hook] = await deliveriesOf(caseId, 1);
    expect(JSON.parse(hook!.body)).toMatchObject({
      trigger: 'case.created',
      case: { _id: caseId },
    });
    expect((await eventOf(caseId)).published_at).not.toBeNull();
    // Relayed again: the event is published, nothing is queued or sent twice.
    await delivery.worker.relayNow();
    expect(receiver.requests.slice(before).filter((r) => r.body.includes(caseId))).toHaveLength(1);
    const sent = await t.db
      .selectFrom('messages')
      .select(['kind', 'status'])
      .where('case_id', '=', caseId)
      .execute();
    expect(sent).toEqual([{ kind: 'invitation', status: 'sent' }]);
  });

  it('sends the event of a case whose server died before handing it on', async () => {
    const lane = await redis.lane();
    // Committed, never published: the server that made it is gone.
    const caseId = await committedCase('dead-server@example.com');
    expect((await eventOf(caseId)).published_at).toBeNull();
    await worker(lane.prefix);
    const mail = await mailTo('dead-server@example.com');
    expect(mail.envelope.to).toEqual(['dead-server@example.com']);
    await deliveriesOf(caseId, 1);
  });
});

async function mailTo(address: string) {
  for (;;) {
    const m = await smtp.nextMessage();
    if (m.envelope.to.includes(address)) return m;
  }
}
