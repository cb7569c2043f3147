import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { PDFDocument } from 'pdf-lib';
import { pino } from 'pino';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { writtenDate, writtenDateTime } from '../../src/base/util/index.js';
import { CaseService, type CaseInput, type RecipientInput } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { ihdr, pngChunk, pngOf, rgbaRows, zeroBomb } from '../helpers/png-builder.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * The signing page's JSON API (load, sign, deny) as `docpipe serve` composes it, over cases made
 * by the real case service on PostgreSQL: the order of groups, one signature per recipient under
 * concurrency, denial, expiry, CSRF, the misses' rate limit, the image checks, and the log.
 */

const PUBLIC = 'http://127.0.0.1:9';
const library = new FolderLibrary(join(projectRoot(), 'templates'));
const MISSES_PER_MINUTE = 5;
const SIGNS_PER_MINUTE = 8;
/** The proxy in front of `proxied`, the one address whose X-Forwarded-For it believes. */
const PROXY = '10.250.0.1';

let t: TestDatabase;
let stack: QueueStack;
let app: HttpApp;
let proxied: HttpApp;
let connection: Redis;
let client: DocpipeClient;
let userId = '';
const logLines: string[] = [];

async function pdf(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('the lease');
  return Buffer.from(await doc.save()).toString('base64');
}

function drawing(width = 300, height = 100): string {
  const png = new PNG({ width, height });
  for (let x = 20; x < width - 20; x++) {
    const y = Math.round(height / 2 + Math.sin(x / 15) * 20);
    const at = (y * width + x) * 4;
    png.data[at + 3] = 255;
  }
  return PNG.sync.write(png).toString('base64');
}

/** The PNG with a text chunk after its header: something a sender could hide in an image. */
function withTextChunk(base64: string): string {
  const png = Buffer.from(base64, 'base64');
  const data = Buffer.from('Comment\0hidden payload', 'latin1');
  const typeAndData = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  // Signature (8) and IHDR (4 + 4 + 13 + 4) come first.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]).toString('base64');
}

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  const env = {
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: `signing-api-${randomUUID()}`,
    DOCPIPE_SIGNING_MISSES_PER_MINUTE: String(MISSES_PER_MINUTE),
    DOCPIPE_SIGNING_ATTEMPTS_PER_MINUTE: String(SIGNS_PER_MINUTE),
  };
  const config = loadConfig(env);
  connection = new Redis(stack.url);
  client = await DocpipeClient.connect({
    redisUrl: stack.url,
    prefix: `signing-api-${randomUUID()}`,
    storage: stack.storage,
    noWorkerMs: 100,
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const deps = {
    config,
    publicUrl: PUBLIC,
    redis: connection,
    redisUrl: stack.url,
    db: t.db,
    keys: new KeyStore({ db: t.db, databaseUrl: t.url }),
    client,
    storage: stack.storage,
    library,
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
    logger: pino({ level: 'info' }, sink),
  };
  app = await buildHttpServer(deps);
  proxied = await buildHttpServer({
    ...deps,
    config: loadConfig({
      ...env,
      DOCPIPE_QUEUE_PREFIX: `signing-api-proxied-${randomUUID()}`,
      DOCPIPE_HTTP_TRUSTED_PROXIES: PROXY,
    }),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await proxied?.close();
  await client?.close();
  connection?.disconnect();
  await Promise.all([t?.close(), stack?.close()]);
});

/** A case of these recipients (and `more` of the body): its id and each recipient's token, in order. */
async function makeCase(
  recipients: RecipientInput[],
  more: Partial<CaseInput> = {},
): Promise<{ id: string; tokens: string[] }> {
  // A lane belongs to the test that opens it.
  const lane = await stack.lane();
  const cases = new CaseService({
    db: t.db,
    client: lane.client,
    storage: stack.storage,
    library,
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
  });
  const { case: made } = await cases.createCase(
    'acme',
    { id: 'k1', userId },
    {
      title: 'Lease',
      recipients,
      documents: [{ name: 'lease.pdf', content: await pdf() }],
      ...more,
    },
    { publicUrl: PUBLIC },
  );
  return {
    id: made.id,
    tokens: made.recipients.map((r) => new URL(r.signingUrl).pathname.split('/')[2]!),
  };
}

let address = 0;
/** Each test its own client address, so that one test's misses never limit another's. */
function nextAddress(): string {
  address += 1;
  return `10.0.${Math.floor(address / 250)}.${address % 250}`;
}

async function load(token: string, remoteAddress: string) {
  return app.inject({ method: 'GET', url: `/sign/${token}/api`, remoteAddress });
}

async function post(
  token: string,
  action: 'sign' | 'deny',
  body: unknown,
  remoteAddress: string,
  csrf?: string,
) {
  let csrfToken = csrf;
  if (csrfToken === undefined) {
    const loaded = await load(token, remoteAddress);
    csrfToken = loaded.statusCode === 200 ? loaded.json<{ csrfToken: string }>().csrfToken : '';
  }
  return app.inject({
    method: 'POST',
    url: `/sign/${token}/api/${action}`,
    remoteAddress,
    headers: { 'x-csrf-token': csrfToken, 'user-agent': 'signing-api test' },
    payload: body as Record<string, unknown>,
  });
}

/** The signing page a link opens (`/sign/{token}`), as a browser asks for it. */
async function page(token: string, remoteAddress: string) {
  return app.inject({ method: 'GET', url: `/sign/${token}`, remoteAddress });
}

async function eventsOf(caseId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('case_events')
    .select('trigger')
    .where('case_id', '=', caseId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.trigger);
}

describe('the signing API', () => {
  it('signs group by group: the second group waits, then signs, and the case is complete', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([
      { name: 'First Signer', email: 'a@example.com', group: 1 },
      { name: 'Second Signer', email: 'b@example.com', group: 2 },
      { name: 'Copy Only', email: 'c@example.com', signing: false },
    ]);
    const [first, second] = tokens as [string, string];

    const early = await load(second, ip);
    expect(early.statusCode).toBe(200);
    const earlyBody = early.json<{ mayAct: boolean; waitingFor: string[]; eidStart: unknown }>();
    expect(earlyBody.mayAct).toBe(false);
    expect(earlyBody.waitingFor).toEqual(['First Signer']);

    const refused = await post(second, 'sign', { method: 'typed', name: 'Second Signer' }, ip);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'not-your-turn', waitingFor: ['First Signer'] });

    const loaded = await load(first, ip);
    const session = loaded.json<{
      mayAct: boolean;
      recipient: { number: number; methods: string[] };
      documents: { pageImages: string[] }[];
    }>();
    expect(session.mayAct).toBe(true);
    expect(session.recipient).toMatchObject({ number: 1, methods: ['draw'] });
    expect(session.documents[0]!.pageImages).toEqual([`/sign/${first}/documents/0/pages/1.png`]);

    const signed = await post(
      first,
      'sign',
      { method: 'draw', image: withTextChunk(drawing()) },
      ip,
    );
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toEqual({ status: 'signed', completed: false, redirectUrl: null });

    // The first link is used: it opens nothing now, like a wrong one.
    const used = await load(first, ip);
    expect(used.statusCode).toBe(404);
    const nowActive = await load(second, ip);
    expect(nowActive.json<{ mayAct: boolean }>().mayAct).toBe(true);

    const last = await post(second, 'sign', { method: 'typed', name: 'Second  Signer ' }, ip);
    expect(last.json()).toMatchObject({ status: 'signed', completed: true });

    const row = await t.db
      .selectFrom('cases')
      .select(['state', 'active_group', 'completed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.active_group).toBeNull();
    expect(row.completed_at).toBeInstanceOf(Date);
    expect(row.state).toBe('open');
    const signatures = await t.db
      .selectFrom('signatures')
      .select(['method', 'typed_name', 'image', 'ip', 'user_agent'])
      .where('case_id', '=', id)
      .orderBy('signed_at')
      .execute();
    expect(signatures.map((s) => [s.method, s.typed_name])).toEqual([
      ['draw', null],
      ['typed', 'Second  Signer'],
    ]);
    // The drawn image was drawn anew by the server: a PNG, not the bytes sent.
    expect(signatures[0]!.image!.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(signatures[0]!.image!.includes('hidden payload')).toBe(false);
    // Cut to the ink (x 20..279, y 30..70 of 300 x 100) and a 2-pixel margin.
    const kept = PNG.sync.read(signatures[0]!.image!);
    expect([kept.width, kept.height]).toEqual([264, 45]);
    expect(signatures[0]).toMatchObject({ ip, user_agent: 'signing-api test' });
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed', 'recipient.signed']);
  });

  it('tells a used link’s holder that they signed, in the case’s language, counting no miss and opening nothing to act on', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase(
      [
        { name: 'Mette Sørensen', email: 'mette@example.com', group: 1 },
        { name: 'Jonas Holm', email: 'jonas@example.com', group: 2 },
        { name: 'Copy Only', email: 'copy@example.com', signing: false },
      ],
      { title: 'Lejekontrakt <Nørrebro>', settings: { language: 'da' } },
    );
    const [mette, jonas, copy] = tokens as [string, string, string];
    const csrf = (await load(mette, ip)).json<{ csrfToken: string }>().csrfToken;
    expect(
      (await post(mette, 'sign', { method: 'typed', name: 'Mette Sørensen' }, ip, csrf)).statusCode,
    ).toBe(200);
    const { acted_at } = await t.db
      .selectFrom('recipients')
      .select('acted_at')
      .where('case_id', '=', id)
      .where('position', '=', 0)
      .executeTakeFirstOrThrow();
    // More views than the address's misses allow: a receipt is no miss.
    for (let i = 0; i <= MISSES_PER_MINUTE; i++) {
      const receipt = await page(mette, ip);
      expect(receipt.statusCode).toBe(200);
      expect(receipt.headers['content-security-policy']).toContain("default-src 'none'");
      expect(receipt.body).toContain('<html lang="da">');
      expect(receipt.body).toContain('<h1>Du har underskrevet</h1>');
      expect(receipt.body).toContain(
        `Du underskrev »Lejekontrakt &lt;Nørrebro&gt;« den ${writtenDateTime(acted_at!, 'da', 'Europe/Copenhagen')}.`,
      );
      expect(receipt.body).toContain(
        'Sagen venter nu på, at de andre underskriver. Når alle har underskrevet, får du den underskrevne kopi på e-mail.',
      );
      expect(receipt.body).not.toContain('<script');
    }
    expect((await load('G'.repeat(43), ip)).statusCode).toBe(404);
    // The used link still signs, denies and loads nothing.
    expect((await load(mette, ip)).statusCode).toBe(404);
    const again = await post(mette, 'sign', { method: 'typed', name: 'Mette Sørensen' }, ip, csrf);
    expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([
      404,
      'signing-link-not-found',
    ]);
    expect((await post(mette, 'deny', { reason: 'changed my mind' }, ip, csrf)).statusCode).toBe(
      404,
    );
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed']);

    // Every signer signed: sealing, then sealed (the seal job sets the state).
    expect(
      (await post(jonas, 'sign', { method: 'typed', name: 'Jonas Holm' }, ip)).json(),
    ).toMatchObject({ completed: true });
    const sealing = await page(mette, ip);
    expect(sealing.statusCode).toBe(200);
    expect(sealing.body).toContain(
      'Alle har underskrevet, og dokumenterne bliver forseglet nu. Den underskrevne kopi sendes til dig på e-mail, så snart den er forseglet.',
    );
    await t.db.updateTable('cases').set({ state: 'signed' }).where('id', '=', id).execute();
    const sealed = await page(jonas, ip);
    expect(sealed.statusCode).toBe(200);
    expect(sealed.body).toContain('Den underskrevne kopi er sendt til dig på e-mail.');
    expect(sealed.body).toContain('skriv til Ann (ann@acme.example)');
    // A copy recipient signed nothing: its link of the closed case is a dead one.
    const copied = await page(copy, ip);
    expect(copied.statusCode).toBe(404);
    expect(copied.body).toContain('<h1>This link does not work</h1>');
  });

  it('shows a draft’s link that its case is not sent yet, counting no miss, and opens the case once sent', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([{ name: 'Early Bird', email: 'early@example.com' }], {
      title: 'Udkast <1>',
      state: 'draft',
      settings: { language: 'da' },
    });
    const token = tokens[0]!;
    for (let i = 0; i <= MISSES_PER_MINUTE; i++) {
      const notice = await page(token, ip);
      expect(notice.statusCode).toBe(200);
      expect(notice.body).toContain('<h1>Sagen er ikke sendt endnu</h1>');
      expect(notice.body).toContain('»Udkast &lt;1&gt;« er gjort klar af Ann (ann@acme.example)');
      expect(notice.body).not.toContain('<script');
    }
    // Nothing to act on before the send, and a wrong token is still a miss past the allowance.
    // The notices counted no miss: the address still has its whole allowance.
    expect((await load(token, ip)).statusCode).toBe(404);
    for (let i = 1; i < MISSES_PER_MINUTE; i++)
      expect((await page(`${'Z'.repeat(42)}${i}`, ip)).statusCode).toBe(404);
    expect((await page('Z'.repeat(43), ip)).statusCode).toBe(429);
    const lane = await stack.lane();
    await new CaseService({
      db: t.db,
      client: lane.client,
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    }).sendCase('acme', id);
    expect((await load(token, nextAddress())).statusCode).toBe(200);
  });

  it('keeps the one 404 page for a signer’s link of a denied or an expired case, and a denier’s', async () => {
    const ip = nextAddress();
    const wrong = await page('H'.repeat(43), ip);
    expect(wrong.statusCode).toBe(404);
    const denied = await makeCase([
      { name: 'Signs First', email: 'a@example.com', group: 1 },
      { name: 'Denies Later', email: 'b@example.com', group: 2 },
    ]);
    await post(denied.tokens[0]!, 'sign', { method: 'typed', name: 'Signs First' }, ip);
    await post(denied.tokens[1]!, 'deny', { reason: 'no' }, ip);
    const expired = await makeCase([
      { name: 'Signs Early', email: 'c@example.com', group: 1 },
      { name: 'Never Signs', email: 'd@example.com', group: 2 },
    ]);
    await post(expired.tokens[0]!, 'sign', { method: 'typed', name: 'Signs Early' }, ip);
    await t.db
      .updateTable('cases')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    for (const token of [...denied.tokens, expired.tokens[0]!]) {
      const answer = await page(token, ip);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe(wrong.body);
    }
  });

  it('takes the recipient’s name with middle names added, in any case and spacing, and says the rule', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([{ name: 'Kim Typed', email: 'kim@example.com' }]);
    const other = await post(tokens[0]!, 'sign', { method: 'typed', name: 'Kim Other' }, ip);
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({
      details: [{ field: 'name', message: expect.stringContaining('middle names may be added') }],
    });
    const fuller = await post(
      tokens[0]!,
      'sign',
      { method: 'typed', name: 'kim Alexander  TYPED' },
      ip,
    );
    expect(fuller.statusCode).toBe(200);
    const [signature] = await t.db
      .selectFrom('signatures')
      .select('typed_name')
      .where('case_id', '=', id)
      .execute();
    // As typed: it is what the sealed page draws at the signature.
    expect(signature).toEqual({ typed_name: 'kim Alexander  TYPED' });
  });

  it('gives the page the case’s message, the recipient’s own and the expiry as the e-mails write it', async () => {
    const ip = nextAddress();
    const { tokens } = await makeCase(
      [
        { name: 'Mette Sørensen', email: 'mette@example.com', message: 'Kun <b>til</b> dig.' },
        { name: 'Jonas Holm', email: 'jonas@example.com' },
      ],
      { settings: { language: 'da', message: 'Husk § 4 om depositum.\nVenlig hilsen Ann' } },
    );
    const loaded = await load(tokens[0]!, ip);
    const body = loaded.json<{
      case: { message: string | null; expiresAt: string; expiresOn: string };
      recipient: { message: string | null };
    }>();
    expect(body.case.message).toBe('Husk § 4 om depositum.\nVenlig hilsen Ann');
    expect(body.recipient.message).toBe('Kun <b>til</b> dig.');
    expect(body.case.expiresOn).toBe(
      writtenDate(new Date(body.case.expiresAt), 'da', 'Europe/Copenhagen'),
    );
    expect(body.case.expiresOn).toMatch(/^\d{1,2}\. [a-z]+ \d{4}$/);
    const jonas = (await load(tokens[1]!, ip)).json<{ recipient: { message: unknown } }>();
    expect(jonas.recipient.message).toBeNull();
  });

  it('records one signature when the same recipient signs twice at once', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([{ name: 'Twice', email: 'a@example.com' }]);
    const token = tokens[0]!;
    const csrf = (await load(token, ip)).json<{ csrfToken: string }>().csrfToken;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        post(token, 'sign', { method: 'typed', name: 'Twice' }, ip, csrf),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404, 404, 404]);
    const count = await t.db
      .selectFrom('signatures')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('case_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed']);
  });

  it('ends the case as denied, with the reason, and every link of it opens nothing after', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([
      { name: 'Denier', email: 'a@example.com', group: 1 },
      { name: 'Other', email: 'b@example.com', group: 2 },
    ]);
    // A later group may deny before its turn.
    const denied = await post(tokens[1]!, 'deny', { reason: 'The rent is <wrong>' }, ip);
    expect(denied.statusCode).toBe(200);
    expect(denied.json()).toEqual({ status: 'denied' });
    const kase = await t.db
      .selectFrom('cases')
      .select(['state', 'active_group'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(kase).toEqual({ state: 'denied', active_group: null });
    const recipient = await t.db
      .selectFrom('recipients')
      .select(['status', 'denial_reason'])
      .where('case_id', '=', id)
      .where('name', '=', 'Other')
      .executeTakeFirstOrThrow();
    expect(recipient).toEqual({ status: 'denied', denial_reason: 'The rent is <wrong>' });
    // The sender reads the reason and the moment in the case.
    const lane = await stack.lane();
    const reader = new CaseService({
      db: t.db,
      client: lane.client,
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    });
    const read = await reader.getCase('acme', id);
    expect(read.recipients[1]).toMatchObject({
      status: 'denied',
      denialReason: 'The rent is <wrong>',
      actedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(read.recipients[0]).not.toHaveProperty('actedAt');
    expect(await eventsOf(id)).toEqual(['case.created', 'case.denied']);
    for (const token of tokens) expect((await load(token, ip)).statusCode).toBe(404);
  });

  it('answers a wrong, a used, an expired and a denied case’s token alike, changing nothing', async () => {
    const ip = nextAddress();
    const expired = await makeCase([{ name: 'Late', email: 'a@example.com' }]);
    await t.db
      .updateTable('cases')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    const answers = [
      await load('A'.repeat(43), ip),
      await load(expired.tokens[0]!, ip),
      await post(expired.tokens[0]!, 'sign', { method: 'typed', name: 'Late' }, ip, 'x'),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 403]);
    expect(answers[0]!.body).toBe(answers[1]!.body);
    expect(answers[0]!.json()).toMatchObject({ error: 'signing-link-not-found' });
    expect(await eventsOf(expired.id)).toEqual(['case.created']);
  });

  it('refuses sign and deny without the page’s CSRF token', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([{ name: 'Victim', email: 'a@example.com' }]);
    const none = await app.inject({
      method: 'POST',
      url: `/sign/${tokens[0]}/api/sign`,
      remoteAddress: ip,
      payload: { method: 'typed', name: 'Victim' },
    });
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ error: 'csrf-token-invalid' });
    const wrong = await post(tokens[0]!, 'deny', { reason: 'no' }, ip, 'not-the-token');
    expect(wrong.statusCode).toBe(403);
    expect(await eventsOf(id)).toEqual(['case.created']);
  });

  it('refuses an image that is not a PNG, one too large, and a name with a bidi control', async () => {
    const ip = nextAddress();
    const { id, tokens } = await makeCase([{ name: 'Careful', email: 'a@example.com' }]);
    const token = tokens[0]!;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array<number>(64).fill(0)]);
    const notPng = await post(
      token,
      'sign',
      { method: 'draw', image: jpeg.toString('base64') },
      ip,
    );
    expect(notPng.statusCode).toBe(400);
    expect(notPng.json()).toMatchObject({
      error: 'validation-failed',
      details: [{ field: 'image', message: expect.stringContaining('not a PNG') }],
    });
    const huge = await post(token, 'sign', { method: 'draw', image: drawing(2000, 100) }, ip);
    expect(huge.statusCode).toBe(400);
    expect(huge.json<{ details: { message: string }[] }>().details[0]!.message).toContain(
      '2000x100',
    );
    const bidi = await post(token, 'sign', { method: 'typed', name: 'Ann\u202Egpj.exe' }, ip);
    expect(bidi.statusCode).toBe(400);
    expect(bidi.json<{ details: { field: string }[] }>().details[0]!.field).toBe('name');
    const blank = PNG.sync.write(new PNG({ width: 200, height: 80 })).toString('base64');
    const empty = await post(token, 'sign', { method: 'draw', image: blank }, ip);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ details: { message: string }[] }>().details[0]!.message).toContain(
      'nothing is drawn',
    );
    const someoneElse = await post(token, 'sign', { method: 'typed', name: 'Mette Sørensen' }, ip);
    expect(someoneElse.statusCode).toBe(400);
    expect(someoneElse.json()).toMatchObject({
      details: [{ field: 'name', message: expect.stringContaining('must be Careful') }],
    });
    const unknown = await post(token, 'sign', { method: 'stamp' }, ip);
    expect(unknown.statusCode).toBe(400);
    expect(await eventsOf(id)).toEqual(['case.created']);
  });

  it('needs every must-be-read document (v2 documentMustBeRead) in documentsRead', async () => {
    const ip = nextAddress();
    const lane = await stack.lane();
    const v2 = new CaseService({
      db: t.db,
      client: lane.client,
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    });
    const made = await v2.createV2Case(
      'acme',
      { id: 'k1', userId },
      {
        title: 'Read first',
        settings: {},
        recipients: [{ name: 'Reader', email: 'a@example.com', signing: true }],
        documents: [
          { name: 'terms.pdf', file: await pdf(), fileIsBlob: true, documentMustBeRead: true },
          { name: 'annex.pdf', file: await pdf(), fileIsBlob: true },
        ],
      },
      { publicUrl: PUBLIC },
    );
    const token = made.data.recipients[0]!.signingToken!;
    const stored = await t.db
      .selectFrom('case_documents')
      .select(['index', 'must_be_read'])
      .where('case_id', '=', made.data._id)
      .orderBy('index')
      .execute();
    expect(stored).toEqual([
      { index: 0, must_be_read: true },
      { index: 1, must_be_read: false },
    ]);
    const loaded = (await load(token, ip)).json<{ documents: { mustBeRead: boolean }[] }>();
    expect(loaded.documents.map((d) => d.mustBeRead)).toEqual([true, false]);
    const unread = await post(
      token,
      'sign',
      { method: 'typed', name: 'Reader', documentsRead: [1] },
      ip,
    );
    expect(unread.statusCode).toBe(400);
    expect(unread.json()).toMatchObject({ details: [{ field: 'documentsRead' }] });
    const read = await post(
      token,
      'sign',
      { method: 'typed', name: 'Reader', documentsRead: [0] },
      ip,
    );
    expect(read.statusCode).toBe(200);
  });

  it('limits the links that open nothing per address, never a link that opens', async () => {
    const ip = nextAddress();
    const { tokens } = await makeCase([{ name: 'Guessed', email: 'a@example.com' }]);
    for (let i = 0; i < MISSES_PER_MINUTE; i++)
      expect((await load(`${'B'.repeat(42)}${i}`, ip)).statusCode).toBe(404);
    const limited = await load('C'.repeat(43), ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Behind a NAT or a proxy one address is many people: one's misses lock no one out.
    expect((await load(tokens[0]!, ip)).statusCode).toBe(200);
    expect(
      (await post(tokens[0]!, 'sign', { method: 'typed', name: 'Guessed' }, ip)).statusCode,
    ).toBe(200);
    expect((await load('D'.repeat(43), ip)).statusCode).toBe(429);
  });

  it('counts misses by the client a trusted proxy names, and ignores the header from anyone else', async () => {
    const behind = (token: string, forwardedFor: string, remoteAddress = PROXY) =>
      proxied.inject({
        method: 'GET',
        url: `/sign/${token}/api`,
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let i = 0; i < MISSES_PER_MINUTE; i++)
      expect((await behind(`${'E'.repeat(42)}${i}`, '198.51.100.7')).statusCode).toBe(404);
    expect((await behind('F'.repeat(43), '198.51.100.7')).statusCode).toBe(429);
    // Another client behind the same proxy is counted as itself.
    expect((await behind('F'.repeat(43), '198.51.100.8')).statusCode).toBe(404);
    // A caller that is not the proxy cannot pick its address by the header.
    const direct = nextAddress();
    for (let i = 0; i < MISSES_PER_MINUTE; i++)
      expect((await behind(`${'G'.repeat(42)}${i}`, `203.0.113.${i}`, direct)).statusCode).toBe(
        404,
      );
    expect((await behind('H'.repeat(43), '203.0.113.99', direct)).statusCode).toBe(429);
  });

  it('decodes no image for a link that opens nothing, and counts every sign of a link', async () => {
    const ip = nextAddress();
    const { tokens } = await makeCase([
      { name: 'Quick', email: 'a@example.com' },
      { name: 'Slow', email: 'b@example.com' },
    ]);
    const csrf = (await load(tokens[0]!, ip)).json<{ csrfToken: string }>().csrfToken;
    expect(
      (await post(tokens[0]!, 'sign', { method: 'draw', image: drawing() }, ip, csrf)).statusCode,
    ).toBe(200);
    // The used link's page still holds its CSRF token: the image is not even looked at.
    const header16 = ihdr({ width: 16, height: 16 });
    const twoHeaders = pngOf(
      header16,
      ihdr({ width: 5000, height: 5000 }),
      pngChunk('IDAT', rgbaRows(16, 16)),
    );
    const used = await post(
      tokens[0]!,
      'sign',
      { method: 'draw', image: twoHeaders.toString('base64') },
      ip,
      csrf,
    );
    expect(used.statusCode).toBe(404);
    expect(used.json()).toMatchObject({ error: 'signing-link-not-found' });
    // A link that opens gets its allowance of signs a minute, refused images included.
    const other = nextAddress();
    for (let i = 0; i < SIGNS_PER_MINUTE; i++) {
      const refused = await post(
        tokens[1]!,
        'sign',
        { method: 'draw', image: twoHeaders.toString('base64') },
        other,
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        details: [
          { field: 'image', message: expect.stringContaining('more than one header chunk') },
        ],
      });
    }
    const limited = await post(tokens[1]!, 'sign', { method: 'typed', name: 'Slow' }, other);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Only that link's: the address loads its other links as before.
    expect((await load(tokens[0]!, other)).statusCode).toBe(404);
  });

  it('refuses PNG bombs by their structure, and the process keeps its memory', async () => {
    const ip = nextAddress();
    const before = process.memoryUsage().rss;
    const bombs = [
      // A 16x16 header, then an 11000x11000 one, and its zeros: 2 GB and 5.7 s before.
      {
        png: pngOf(
          ihdr({ width: 16, height: 16 }),
          ihdr({ width: 11000, height: 11000 }),
          pngChunk('IDAT', zeroBomb(11000 * (11000 * 4 + 1))),
        ),
        problem: 'more than one header chunk',
      },
      // A 1x1 interlaced image whose data inflates to 400 MiB.
      {
        png: pngOf(
          ihdr({ width: 1, height: 1, interlace: 1 }),
          pngChunk('IDAT', zeroBomb(400 << 20)),
        ),
        problem: 'interlaced',
      },
      // The same data, not interlaced.
      {
        png: pngOf(ihdr({ width: 1, height: 1 }), pngChunk('IDAT', zeroBomb(400 << 20))),
        problem: 'inflates to more than its header says',
      },
    ];
    for (const bomb of bombs) {
      const { tokens } = await makeCase([{ name: 'Target', email: 'a@example.com' }]);
      const answer = await post(
        tokens[0]!,
        'sign',
        { method: 'draw', image: bomb.png.toString('base64') },
        ip,
      );
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        error: 'validation-failed',
        details: [{ field: 'image', message: expect.stringContaining(bomb.problem) }],
      });
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('answers what the body parser refuses as the request’s mistake, not a failure', async () => {
    const ip = nextAddress();
    const { tokens } = await makeCase([{ name: 'Parser', email: 'a@example.com' }]);
    const url = `/sign/${tokens[0]}/api/sign`;
    const send = (payload: string, type = 'application/json') =>
      app.inject({
        method: 'POST',
        url,
        remoteAddress: ip,
        headers: { 'content-type': type },
        payload,
      });
    const deep = await send(`${'['.repeat(40)}${']'.repeat(40)}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ error: 'validation-failed', details: [{ field: 'body' }] });
    const proto = await send('{"method":"typed","name":"Parser","__proto__":{"admin":true}}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json()).toMatchObject({ error: 'validation-failed' });
    const form = await send('method=typed&name=Parser', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: 'validation-failed', details: [{ field: 'body' }] });
    const broken = await send('{"method":');
    expect(broken.statusCode).toBe(400);
    expect(logLines.some((l) => l.includes('the signing API failed'))).toBe(false);
  });

  it('keeps tokens out of the log', () => {
    const lines = logLines.filter((l) => l.includes('/sign/'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => /\/sign\/[A-Za-z0-9_-]{43}/.test(l))).toBe(false);
  });
});
