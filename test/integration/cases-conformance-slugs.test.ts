import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { OfficePool } from '../../src/render/convert/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { leaseTags } from '../helpers/lease.js';
import { expectNothingWritten } from '../helpers/nothing-written.js';
import {
  BROKEN_DOCUMENT,
  call,
  caseServer,
  fields,
  startConformanceStack,
  type Answer,
  type ConformanceStack,
  type StackCompany,
} from './cases-conformance-stack.js';

/**
 * Every slug of spec 7.2 that the v3 case routes can raise, each over HTTP against the server as
 * `docpipe serve` composes it (real PostgreSQL, Redis and LibreOffice), with its status, its
 * `details` paths, and the proof that the refusal wrote nothing (nothing-written.ts). The slugs
 * of web-flows and forms (`sender-not-in-company`, `form-not-found`, `webflow-not-found`,
 * `idempotency-conflict`) belong to routes docpipe does not have.
 *
 * The keys' messages and the verified-key cache are http-auth.test.ts's; here each key slug is
 * asked of POST /v3/api/cases, to prove that the case route is behind it and writes nothing.
 */

let s: ConformanceStack;
let pdf: string;

beforeAll(async () => {
  s = await startConformanceStack();
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('Contract');
  pdf = Buffer.from(await doc.save()).toString('base64');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const ann = { name: 'Ann Andersen', email: 'ann@example.com' };
const byUrl = { name: 'Annex', url: 'https://files.example.com/annex.pdf' };
const sound = (extra: Record<string, unknown> = {}) => ({
  title: 'Lease',
  recipients: [ann],
  documents: [byUrl],
  ...extra,
});
const corpus = (file: string) => readFileSync(join(corpusDir(), 'docx', file)).toString('base64');

/**
 * POST /v3/api/cases as `company` (or with `key`; null: without one), proved to have written
 * nothing.
 */
async function refusedCreate(
  company: StackCompany,
  body: unknown,
  key: string | null = company.key,
): Promise<Answer> {
  const app = await caseServer(s);
  return expectNothingWritten(s.probe(company), () =>
    call(app, 'POST', '/v3/api/cases', key ?? undefined, body),
  );
}

/** A key of a new user of acme, made for one test (the verified-key cache never saw it). */
async function freshKey(): Promise<{ key: string; id: string; email: string }> {
  const email = `user-${randomUUID()}@acme.example`;
  await new UserRepository(s.t.db).add('acme', { email, name: 'Temporary' });
  const made = await s.keys.create({ company: 'acme', user: email, name: 'temporary' });
  return { key: made.key, id: made.id, email };
}

describe('the key (spec 5, 7.2)', () => {
  it('missing-token and invalid-token: 401, nothing written', async () => {
    const none = await refusedCreate(s.acme, sound(), null);
    expect([none.status, none.body.error]).toEqual([401, 'missing-token']);
    for (const wrong of ['not-a-key', `${s.acme.key.slice(0, -4)}0000`]) {
      const res = await refusedCreate(s.acme, sound(), wrong);
      expect([res.status, res.body.error], wrong).toEqual([401, 'invalid-token']);
    }
  });

  it('key-revoked and key-expired: 401, nothing written', async () => {
    const revoked = await freshKey();
    await s.keys.revoke(revoked.id);
    const r = await refusedCreate(s.acme, sound(), revoked.key);
    expect([r.status, r.body.error]).toEqual([401, 'key-revoked']);
    const expired = await freshKey();
    await s.t.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    const e = await refusedCreate(s.acme, sound(), expired.key);
    expect([e.status, e.body.error]).toEqual([401, 'key-expired']);
  });

  it('company-disabled: 403, nothing written', async () => {
    // A company of this test's own: disabling acme would refuse every other test's key.
    const id = `off${randomUUID().slice(0, 8)}`;
    await new CompanyRepository(s.t.db).create({ id, name: 'Soon disabled' });
    await new UserRepository(s.t.db).add(id, { email: `owner@${id}.example`, name: 'Owner' });
    const { key } = await s.keys.create({ company: id, user: `owner@${id}.example` });
    await new CompanyRepository(s.t.db).setDisabled(id, true);
    const off = { ...s.acme, id, key };
    const res = await refusedCreate(off, sound(), key);
    expect([res.status, res.body.error]).toEqual([403, 'company-disabled']);
  });

  it('key-has-no-user: 403 when the key’s user was removed, and for a key copied from Redis that names no sender', async () => {
    const leaver = await freshKey();
    await new UserRepository(s.t.db).remove('acme', leaver.email);
    const removed = await refusedCreate(s.acme, sound(), leaver.key);
    expect([removed.status, removed.body.error]).toEqual([403, 'key-has-no-user']);

    // A key copied from Redis never had a user: it works, but has nobody to send a case.
    const copied = await freshKey();
    await s.t.db
      .updateTable('api_keys')
      .set({ user_id: null, copied_from_redis_at: new Date() })
      .where('id', '=', copied.id)
      .execute();
    const nobody = await refusedCreate(s.acme, sound(), copied.key);
    expect([nobody.status, nobody.body.error]).toEqual([403, 'key-has-no-user']);
    const app = await caseServer(s);
    const named = await call(app, 'POST', '/v3/api/cases', copied.key, {
      ...sound(),
      senderEmail: s.acme.member.email,
    });
    expect(named.status, named.raw).toBe(201);
  });
});

describe('the body (spec 7.2)', () => {
  it('validation-failed: 400 with every field', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({ recipients: [{ name: 'Bo', type: 'sms' }, { name: 'Cy' }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['recipients[0].phone', 'recipients[1].email']);
  });

  it('invalid-folder: 400 at folder, for a name and an id the company lacks', async () => {
    for (const folder of [
      'No such folder',
      randomUUID(),
      s.globex.folder.name,
      s.globex.folder.id,
    ]) {
      const res = await refusedCreate(s.acme, sound({ folder }));
      expect([res.status, res.body.error, fields(res)], folder).toEqual([
        400,
        'invalid-folder',
        ['folder'],
      ]);
    }
  });

  it('invalid-folder says what the caller can send: the nearest of its folders and their names', async () => {
    const res = await refusedCreate(s.acme, sound({ folder: 'Leases of acmee' }));
    const message = res.body.details![0]!.message;
    expect(message).toContain('(did you mean "Leases of acme"?)');
    expect(message).toContain('"Leases of acme"');
    expect(message).toContain('leave folder out for the default one');
    // The caller's folders only, and no command of the operator's.
    expect(message).not.toContain(s.globex.folder.name);
    expect(message).not.toContain('docpipe ');
  });

  it('message-template-not-found: 400 naming each template, case and recipient level', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({
        messageTemplateId: 'gone',
        recipients: [
          { ...ann, messageTemplateId: 'also-gone' },
          { ...ann, name: 'Bo', messageTemplateId: s.acme.templateId },
          { ...ann, name: 'Cy', messageTemplateId: s.globex.templateId },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('message-template-not-found');
    expect(fields(res)).toEqual([
      'messageTemplateId',
      'recipients[0].messageTemplateId',
      'recipients[2].messageTemplateId',
    ]);
    const recipientOnly = await refusedCreate(
      s.acme,
      sound({ recipients: [{ ...ann, messageTemplateId: 'gone' }] }),
    );
    expect([recipientOnly.body.error, fields(recipientOnly)]).toEqual([
      'message-template-not-found',
      ['recipients[0].messageTemplateId'],
    ]);
  });

  it('preset-not-found: 400 at presetId', async () => {
    for (const presetId of ['no-such-preset', s.globex.presetId]) {
      const res = await refusedCreate(s.acme, sound({ presetId }));
      expect([res.status, res.body.error, fields(res)], presetId).toEqual([
        400,
        'preset-not-found',
        ['presetId'],
      ]);
    }
  });

  it('sender-user-not-found: 400 at senderId or senderEmail', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ senderId: randomUUID() }, ['senderId']],
      [{ senderId: 'not-a-uuid' }, ['senderId']],
      [{ senderEmail: 'nobody@acme.example' }, ['senderEmail']],
      [{ senderEmail: s.globex.owner.email }, ['senderEmail']],
      [{ senderId: s.globex.owner.id }, ['senderId']],
    ];
    for (const [sender, at] of cases) {
      const res = await refusedCreate(s.acme, sound(sender));
      expect([res.status, res.body.error, fields(res)], JSON.stringify(sender)).toEqual([
        400,
        'sender-user-not-found',
        at,
      ]);
    }
    // Two members named at once: which one sends it is unclear, so it is refused.
    const two = await refusedCreate(
      s.acme,
      sound({ senderId: s.acme.owner.id, senderEmail: s.acme.member.email }),
    );
    expect([two.status, two.body.error]).toEqual([400, 'sender-user-not-found']);
  });

  it('invalid-signing-page-logo: 400 at settings.logo for bytes that are no PNG or JPEG, and another site’s URL', async () => {
    // The logos accepted (PNG, JPEG, this service's URLs) are case-service.test.ts's.
    for (const logo of [
      Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64'),
      'https://evil.example/logo.png',
      'not base64 at all!',
    ]) {
      const res = await refusedCreate(s.acme, sound({ settings: { logo } }));
      expect([res.status, res.body.error, fields(res)], logo).toEqual([
        400,
        'invalid-signing-page-logo',
        ['settings.logo'],
      ]);
    }
  });
});

describe('the documents (spec 7.2)', () => {
  it('document-not-found: 400 at documents[i] on POST /cases, 404 on the documents endpoints', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({ documents: [byUrl, { name: 'x', documentId: 'no-such-document' }] }),
    );
    expect([res.status, res.body.error, fields(res)]).toEqual([
      400,
      'document-not-found',
      ['documents[1]'],
    ]);
    const app = await caseServer(s);
    const one = await call(app, 'GET', '/v3/api/documents/no-such-document', s.acme.key);
    expect([one.status, one.body.error, fields(one)]).toEqual([404, 'document-not-found', ['id']]);
    const fromIt = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/v3/api/documents/no-such-document/cases', s.acme.key, {
        title: 'Lease',
        recipients: [ann],
      }),
    );
    expect([fromIt.status, fromIt.body.error, fields(fromIt)]).toEqual([
      404,
      'document-not-found',
      ['id'],
    ]);
  });

  it('document-version-not-found: 400 at documents[i], and at versionId on the library route', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({
        documents: [{ name: 'lease', documentId: 'lease', versionId: '99', tags: leaseTags }],
      }),
    );
    expect([res.status, res.body.error, fields(res)]).toEqual([
      400,
      'document-version-not-found',
      ['documents[0]'],
    ]);
    const app = await caseServer(s);
    const fromIt = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/v3/api/documents/lease/cases', s.acme.key, {
        title: 'Lease',
        recipients: [ann],
        versionId: '99',
        tags: leaseTags,
      }),
    );
    expect([fromIt.status, fromIt.body.error, fields(fromIt)]).toEqual([
      400,
      'document-version-not-found',
      ['versionId'],
    ]);
  });

  it('document-production-failed: 400 for a library document that cannot be produced (its document.json is broken)', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({ documents: [byUrl, { name: 'broken', documentId: BROKEN_DOCUMENT }] }),
    );
    expect([res.status, res.body.error, fields(res)]).toEqual([
      400,
      'document-production-failed',
      ['documents[1]'],
    ]);
    expect(res.body.details![0]!.message).toMatch(/document\.json/);
    const app = await caseServer(s);
    const fromIt = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', `/v3/api/documents/${BROKEN_DOCUMENT}/cases`, s.acme.key, {
        title: 'Lease',
        recipients: [ann],
      }),
    );
    expect([fromIt.status, fromIt.body.error]).toEqual([400, 'document-production-failed']);
  });

  it('unsupported-file-type: 400 naming every document that is no PDF or real .docx, in one answer', async () => {
    const res = await refusedCreate(
      s.acme,
      sound({
        documents: [
          { name: 'good.pdf', content: pdf },
          { name: 'text', content: Buffer.from('just some text').toString('base64') },
          // A truncated package and an encrypted one: LibreOffice could not open either, and
          // the content check refuses them before it is asked.
          { name: 'truncated', content: corpus('tika__testWORD_truncated.docx') },
          { name: 'encrypted', content: corpus('poi__bug53475-password-is-pass.docx') },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported-file-type');
    expect(fields(res)).toEqual(['documents[1]', 'documents[2]', 'documents[3]']);
  });

  it('document-conversion-failed: 400 at documents[i] when LibreOffice cannot convert a .docx, nothing written', async () => {
    // Every .docx that passes docpipe's content check converts with LibreOffice 7.4 (the corpus
    // budget of corpus-convert.test.ts fails none), and those LibreOffice cannot open are
    // refused before it is asked (the test above). What remains is LibreOffice not finishing:
    // a 180-page document on an office whose deadline is 2 s, which fails both attempts.
    const office = await OfficePool.start({ processes: 1, conversionTimeoutMs: 2000 });
    onTestFinished(() => office.close());
    const prefix = `conversion-${randomUUID()}`;
    const connection = createRedis(s.stack.url, 'worker');
    onTestFinished(() => connection.disconnect());
    const worker = await DocpipeWorker.start({
      redisUrl: s.stack.url,
      prefix,
      concurrency: 1,
      renderer: new Renderer({
        preparer: s.stack.preparer,
        converter: office,
        storage: s.stack.storage,
      }),
      storage: s.stack.storage,
      library: new FolderLibrary(s.libraryDir),
    });
    onTestFinished(() => worker.close(5000));
    const client = await DocpipeClient.connect({
      redisUrl: s.stack.url,
      prefix,
      storage: s.stack.storage,
      backoffMs: 200,
    });
    onTestFinished(() => client.close());
    const app = await caseServer(s, { lane: { prefix, connection, client } });
    const res = await expectNothingWritten(s.probe(s.acme), () =>
      call(
        app,
        'POST',
        '/v3/api/cases',
        s.acme.key,
        sound({
          documents: [byUrl, { name: 'long', content: corpus('poi__bug65649.docx') }],
        }),
      ),
    );
    expect([res.status, res.body.error, fields(res)], res.raw).toEqual([
      400,
      'document-conversion-failed',
      ['documents[1]'],
    ]);
    expect(res.body.details![0]!.message).toMatch(/did not finish in time/);
  }, 120_000);
});

describe('reading (spec 7.2)', () => {
  it('case-not-found: 404 for an id that is nobody’s, and one that is no id', async () => {
    const app = await caseServer(s);
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await call(app, 'GET', `/v3/api/cases/${id}`, s.acme.key);
      expect([res.status, res.body.error], id).toEqual([404, 'case-not-found']);
    }
  });
});
