import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startDelivery } from '../../src/app/wiring/delivery.js';
import { silentLogger } from '../../src/base/log/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { LocalStorage, signUrl } from '../../src/render/storage/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { EventQueue, QueueCaseDelivery } from '../../src/service/delivery/index.js';
import { DEFAULT_MAIL_FROM } from '../../src/service/messages/index.js';
import { sealCase } from '../../src/service/sealing/index.js';
import { signRecipient } from '../../src/service/signing/index.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/service/webhooks/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp-server.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The signed copy of a case whose documents were given by another host's URL (kept by
 * reference, spec 2.2): sealed by the real sealing, handed to delivery through the outbox and
 * sent over a real SMTP server, it never says the documents were sealed. Nothing is rendered:
 * such a document is never read.
 */

const PUBLIC = 'http://docpipe.test';
const SECRET = 'by-reference-test-signing-secret';
const LINK = 'https://files.example.com/lease.pdf';

let t: TestDatabase;
let redis: RedisOnly;
let smtp: SmtpTestServer;
let userId: string;

beforeAll(async () => {
  [t, redis, smtp] = await Promise.all([testDatabase(), startRedisOnly(), startSmtpServer()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
});
afterAll(async () => {
  await Promise.all([t?.close(), redis?.close(), smtp?.close()]);
});

/** Inside a test: delivery over the SMTP server, and a case service whose cases it delivers. */
async function stack() {
  const lane = await redis.lane();
  const storage = new LocalStorage(testDir('by-reference-storage-'));
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
      email: { kind: 'smtp', url: smtp.url },
      from: DEFAULT_MAIL_FROM,
      attachMaxBytes: 1024 * 1024,
      timeZone: 'Europe/Copenhagen',
      timeoutMs: 5_000,
    },
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true, backoffMs: 50 },
    logger: silentLogger,
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
      renderDocumentSet: () => Promise.reject(new Error('a document by reference is never read')),
      render: () => Promise.reject(new Error('a document by reference is never read')),
    },
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    documentUrl,
    signingSecret: SECRET,
    delivery: new QueueCaseDelivery(queue, 20_000),
  });
  return { cases, storage };
}

/** The first message to `address` that `match` takes, awaited. */
async function mailTo(address: string, match: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
  for (;;) {
    const found = smtp.messages.find((m) => m.envelope.to.includes(address) && match(m));
    if (found) return found;
    await smtp.nextMessage();
  }
}

describe('the signed copy of a case signed by reference', () => {
  it('says the documents were signed by reference to their link and not sealed, and links them', async () => {
    const s = await stack();
    const to = 'by-reference-signer@example.com';
    const { case: made } = await s.cases.createCase(
      'acme',
      { id: 'k1', userId },
      {
        title: 'Linked lease',
        recipients: [{ name: 'Linked Signer', email: to }],
        documents: [{ name: 'lease', url: LINK }],
        settings: { signingSchemas: ['draw'] },
      },
      { publicUrl: PUBLIC },
    );
    await signRecipient(
      t.db,
      { token: made.recipients[0]!.signingUrl.split('/').pop()! },
      { method: 'typed', name: 'Linked Signer' },
      { ip: '192.0.2.1', userAgent: 'test', now: new Date(Date.now() - 1000) },
    );
    const sealed = await sealCase(
      {
        db: t.db,
        storage: s.storage,
        sealer: () => Promise.reject(new Error('nothing is sealed: no document is stored')),
        version: '0.0.0-test',
      },
      'acme',
      made.id,
    );
    expect(sealed).toEqual({ kind: 'sealed', documents: 0 });
    // The invitation came first; the copy is the message without a signing link.
    const copy = await mailTo(to, (m) => !/\/sign\//.test(m.parsed.text ?? ''));
    const text = (copy.parsed.text ?? '').replace(/\s+/g, ' ');
    expect(copy.parsed.subject).toBe('Signed: Linked lease');
    expect(text).toContain('signed by reference to the link and not sealed');
    expect(text).not.toContain('and sealed');
    expect(text).toContain(LINK);
    expect(text).toContain('lease (signed by reference to the link, not sealed)');
    expect(copy.parsed.attachments).toEqual([]);
  });
});
