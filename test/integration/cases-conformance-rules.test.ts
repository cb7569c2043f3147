import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { leaseTags } from '../helpers/lease.js';
import { expectNothingWritten, footprint, footprintChanges } from '../helpers/nothing-written.js';
import {
  PUBLIC_URL,
  call,
  caseServer,
  fields,
  startConformanceStack,
  type Answer,
  type ConformanceStack,
  type StackCompany,
} from './cases-conformance-stack.js';

/**
 * Conformance of POST /v3/api/cases to spec 4.4's create rules, 2.2's defaults and answer, and
 * 7.3's notices, over HTTP against the server as `docpipe serve` composes it, with a real
 * PostgreSQL, Redis and LibreOffice (cases-conformance-stack.ts). Every refusal is proved to
 * have written nothing (test/helpers/nothing-written.ts). The slugs of 7.2 are
 * cases-conformance-slugs.test.ts's.
 *
 * Already proved elsewhere, and not repeated here:
 * - every structural problem at once, v2's members as `unknown field`, the body limit, the list's
 *   parameters and cursor: http-cases.test.ts;
 * - the transaction's failure (an injected trigger) leaving no row and no document, the event's
 *   payload, the token stored only as its hash: case-service.test.ts;
 * - a library document's missing field named at `tags.<field>` on POST /v3/api/documents/{id}/cases,
 *   and a 201's document URL downloading the PDF: http-cases-pipeline.test.ts.
 */

let s: ConformanceStack;
let pdf: string;

beforeAll(async () => {
  s = await startConformanceStack();
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('A signed contract');
  pdf = Buffer.from(await doc.save()).toString('base64');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** A .docx with a value nobody rendered before: its render is new, so a refusal must remove it. */
const freshDocx = () => ({
  name: 'letter.docx',
  content: buildDocx({ body: para(run('Dear {name}')) }).toString('base64'),
  tags: [{ tag: 'name', value: `Ann ${randomUUID()}`, type: 'text' }],
});
const ann = { name: 'Ann Andersen', email: 'ann@example.com' };
const byUrl = { name: 'Annex', url: 'https://files.example.com/annex.pdf' };

async function create(
  company: StackCompany,
  body: unknown,
  app?: Awaited<ReturnType<typeof caseServer>>,
) {
  return call(app ?? (await caseServer(s)), 'POST', '/v3/api/cases', company.key, body);
}

/** A refusal of `company`'s request, proved to have written nothing. */
function refused(company: StackCompany, act: () => Promise<Answer>): Promise<Answer> {
  return expectNothingWritten(s.probe(company), act);
}

async function read(company: StackCompany, id: string) {
  const app = await caseServer(s);
  const res = await call(app, 'GET', `/v3/api/cases/${id}`, company.key);
  expect(res.status, res.raw).toBe(200);
  return res.body.case as Record<string, unknown> & {
    recipients: { signing: boolean; group: number }[];
    settings: Record<string, unknown>;
    sender: { id: string; email: string };
    expiresAt: string;
    createdAt: string;
  };
}

const caseOf = (a: Answer) =>
  a.body.case as {
    id: string;
    recipients: { id: string; uid: string; signingUrl: string; status: string }[];
    documents: { url: string }[];
    notices?: { code: string; message: string; using?: string[] }[];
  };

describe('the proof that nothing was written', () => {
  it('fails when a case was created (the control: it can tell)', async () => {
    const app = await caseServer(s);
    const made = expectNothingWritten(s.probe(s.acme), () =>
      create(
        s.acme,
        { title: 'Control', recipients: [ann], documents: [{ name: 'c.pdf', content: pdf }] },
        app,
      ),
    );
    const err = await made.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/cases: \d+ -> \d+/);
    expect(err?.message).toMatch(/recipients: \d+ -> \d+/);
    expect(err?.message).toMatch(/case_documents: \d+ -> \d+/);
    expect(err?.message).toMatch(/case_events: \d+ -> \d+/);
    expect(err?.message).toMatch(/\+ cases\/61636d65\/[0-9a-f-]{36}\/0\.pdf/);
  });

  it('counts only the company of the request, and sees a stored document of any company', async () => {
    const before = await footprint(s.probe(s.globex));
    const made = await create(s.acme, {
      title: 'Acme only',
      recipients: [ann],
      documents: [{ name: 'c.pdf', content: pdf }],
    });
    expect(made.status, made.raw).toBe(201);
    const changes = footprintChanges(before, await footprint(s.probe(s.globex)));
    // Acme's rows are not globex's; the new PDF under cases/ (and its folder) is seen whoever
    // is asked for.
    expect(changes.filter((c) => !c.endsWith('/'))).toEqual([
      expect.stringMatching(/^\+ cases\/61636d65\//),
    ]);
  });
});

describe('spec 4.4: the rules in order', () => {
  it('rule 2 (4.4): structure first — a body wrong in structure and in its references hears only the structural problems, every one with its path', async () => {
    const res = await refused(s.acme, () =>
      create(s.acme, {
        // References that rule 2 would refuse, had the structure been sound.
        folder: 'No such folder',
        presetId: 'no-such-preset',
        messageTemplateId: 'no-such-template',
        senderEmail: 'nobody@acme.example',
        title: 'Lease',
        signingPage: { logo: 'x' },
        realtime: true,
        type: 'simple',
        user_name: 'Old',
        settings: {
          allowRecipientsViewOthers: true,
          lang: 'da',
          availability: { days: 3 },
          reminders: { daysBetween: 366 },
          integrations: { microsoft: { returnPath: 'back' } },
          logo: 'R0lGODlhAQABAAAAACw=',
        },
        recipients: [{ ...ann, cpr: '0101011234', messageTemplateId: 'no-such-template' }],
        documents: [
          { name: 'two sources', content: pdf, url: 'https://example.com/a.pdf' },
          { name: 'a version alone', url: 'https://example.com/b.pdf', versionId: '1' },
          // Content that is no PDF or .docx: rule 3's, never reached.
          { name: 'text', content: Buffer.from('plain text').toString('base64') },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res).sort()).toEqual(
      [
        'signingPage',
        'realtime',
        'type',
        'user_name',
        'settings.allowRecipientsViewOthers',
        'settings.lang',
        'settings.availability',
        'settings.reminders.daysBetween',
        'settings.integrations.microsoft.returnPath',
        'recipients[0].cpr',
        'documents[0]',
        'documents[1].versionId',
      ].sort(),
    );
    for (const d of res.body.details!)
      if (!/^documents|daysBetween|returnPath/.test(d.field))
        expect(d.message, d.field).toBe('unknown field');
    // Nothing of rule 2 or 3 was looked at.
    for (const later of ['folder', 'presetId', 'messageTemplateId', 'senderEmail', 'settings.logo'])
      expect(fields(res)).not.toContain(later);
    expect(fields(res)).not.toContain('documents[2]');
  });

  it('rule 2 before rule 3: a sound body with a bad reference hears only the reference; no document is rendered', async () => {
    const lane = await s.stack.lane();
    const app = await caseServer(s, { lane });
    const res = await refused(s.acme, () =>
      create(
        s.acme,
        {
          title: 'Lease',
          folder: 'No such folder',
          recipients: [ann],
          documents: [
            freshDocx(),
            { name: 'text', content: Buffer.from('plain text').toString('base64') },
          ],
        },
        app,
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid-folder',
      details: [{ field: 'folder', message: expect.any(String) }],
    });
    // The documents never went to the pipeline: no job was added for them.
    const counts = await lane.documents.getJobCounts();
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('rule 1 (4.4): an open case needs recipients and documents (both named); a draft does not', async () => {
    const res = await refused(s.acme, () => create(s.acme, { title: 'Empty', state: 'open' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['recipients', 'documents']);
    const draft = await create(s.acme, { title: 'Empty draft', state: 'draft' });
    expect(draft.status, draft.raw).toBe(201);
  });

  it('rule 2: every reference problem at once with its path, the answer’s slug the first one’s', async () => {
    const res = await refused(s.acme, () =>
      create(s.acme, {
        title: 'Lease',
        folder: 'No such folder',
        presetId: 'no-such-preset',
        messageTemplateId: 'no-such-template',
        senderId: '00000000-0000-4000-8000-000000000000',
        // (A returnPath without its leading `/` is the schema's, rule 1's: see the test above.)
        settings: { logo: 'R0lGODlhAQABAAAAACw=' },
        recipients: [
          { ...ann, messageTemplateId: s.acme.templateId },
          { name: 'Bo', type: 'sms', messageTemplateId: 'gone' },
        ],
        documents: [byUrl],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error, res.raw).toBe('invalid-folder');
    expect(fields(res)).toEqual([
      'folder',
      'presetId',
      'messageTemplateId',
      'recipients[1].messageTemplateId',
      'senderId',
      'settings.logo',
      'recipients[1].phone',
    ]);
  });

  it('rule 3: every failing document in one answer, and the render a good document got is removed', async () => {
    const lane = await s.stack.lane();
    const app = await caseServer(s, { lane });
    const missingOne = leaseTags.filter((t) => t.tag !== 'contract_no');
    const res = await refused(s.acme, () =>
      create(
        s.acme,
        {
          title: 'Lease',
          recipients: [ann],
          documents: [
            freshDocx(),
            { name: 'lease', documentId: 'lease', tags: missingOne },
            { name: 'gone', documentId: 'no-such-document' },
            { name: 'old', documentId: 'lease', versionId: '99' },
          ],
        },
        app,
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['documents[1].tags.contract_no', 'documents[2]', 'documents[3]']);
    // The good document did go through the pipeline: what it rendered was removed again.
    expect(await lane.documents.getJobCounts('completed')).toEqual({ completed: 1 });
  });

  it('rule 4: a 201 wrote the case, each recipient and document, one event, and the PDFs it stores', async () => {
    const before = await footprint(s.probe(s.acme));
    const res = await create(s.acme, {
      title: 'Lease',
      recipients: [ann, { name: 'Bo', type: 'sms', phone: '+4512345678' }],
      documents: [
        { name: 'a.pdf', content: pdf },
        freshDocx(),
        byUrl,
        { name: 'lease', documentId: 'lease', tags: leaseTags },
      ],
    });
    expect(res.status, res.raw).toBe(201);
    const id = caseOf(res).id;
    const changes = footprintChanges(before, await footprint(s.probe(s.acme)));
    const rows = changes.filter((c) => !c.startsWith('+'));
    const stored = changes.filter((c) => c.startsWith('+ cases/') && !c.endsWith('/'));
    expect(rows).toEqual([
      `cases: ${before.rows.cases} -> ${before.rows.cases + 1}`,
      `recipients: ${before.rows.recipients} -> ${before.rows.recipients + 2}`,
      `case_documents: ${before.rows.case_documents} -> ${before.rows.case_documents + 4}`,
      `case_events: ${before.rows.case_events} -> ${before.rows.case_events + 1}`,
    ]);
    // A case's own copy of each document it was given as bytes or from the library; the URL is
    // kept by reference and never fetched.
    expect(stored.sort()).toEqual([0, 1, 3].map((i) => `+ cases/61636d65/${id}/${i}.pdf`));
  });

  it('rule 5: no idempotency key — the same body twice makes two cases', async () => {
    const body = { title: 'Twice', referenceId: `twice-${randomUUID()}`, state: 'draft' };
    const app = await caseServer(s);
    const first = await create(s.acme, body, app);
    const second = await create(s.acme, body, app);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(caseOf(first).id).not.toBe(caseOf(second).id);
    const list = await call(
      app,
      'GET',
      `/v3/api/cases?referenceId=${body.referenceId}`,
      s.acme.key,
    );
    expect((list.body.cases as unknown[]).length).toBe(2);
  });

  it('rule 6: without a sender the key’s user sends it, with the notice; a named member sends it without one', async () => {
    const none = await create(s.acme, { title: 'Mine', state: 'draft' });
    expect(caseOf(none).notices?.map((n) => n.code)).toContain('sender-defaulted-to-key-creator');
    expect((await read(s.acme, caseOf(none).id)).sender).toMatchObject({
      id: s.acme.owner.id,
      email: s.acme.owner.email,
    });
    for (const named of [
      { senderEmail: s.acme.member.email.toUpperCase() },
      { senderId: s.acme.member.id },
      { senderId: s.acme.member.id, senderEmail: s.acme.member.email },
    ]) {
      const res = await create(s.acme, { title: 'Theirs', state: 'draft', ...named });
      expect(res.status, res.raw).toBe(201);
      expect(caseOf(res).notices?.map((n) => n.code) ?? []).not.toContain(
        'sender-defaulted-to-key-creator',
      );
      expect((await read(s.acme, caseOf(res).id)).sender).toMatchObject({
        id: s.acme.member.id,
        email: s.acme.member.email,
        name: `Member of acme`,
      });
    }
  });

  it('rule 7: signing links use the company’s signing domain, else the service’s public URL', async () => {
    const body = { title: 'Links', state: 'draft', recipients: [ann, { ...ann, name: 'Bo' }] };
    const acme = caseOf(await create(s.acme, body));
    const globex = caseOf(await create(s.globex, body));
    for (const r of acme.recipients)
      expect(r.signingUrl).toMatch(/^https:\/\/sign\.acme\.example\/sign\/[A-Za-z0-9_-]{43}$/);
    for (const r of globex.recipients)
      expect(r.signingUrl).toMatch(new RegExp(`^${PUBLIC_URL}/sign/[A-Za-z0-9_-]{43}$`));
    // Each recipient a link of its own.
    expect(new Set([...acme.recipients, ...globex.recipients].map((r) => r.signingUrl)).size).toBe(
      4,
    );
  });
});

describe('spec 2.2: the defaults', () => {
  it('state draft creates without sending; open is the default', async () => {
    const draft = await create(s.acme, {
      title: 'Draft',
      state: 'draft',
      recipients: [ann],
      documents: [byUrl],
    });
    expect(draft.body.case).toMatchObject({
      delivery: {
        attempted: false,
        email: { ok: true, attempted: false, reason: expect.stringMatching(/draft/) },
      },
    });
    expect((await read(s.acme, caseOf(draft).id)).state).toBe('draft');
    const open = await create(s.acme, { title: 'Open', recipients: [ann], documents: [byUrl] });
    expect((await read(s.acme, caseOf(open).id)).state).toBe('open');
  });

  it('expiresInDays is 30; a preset’s lies beneath the body’s', async () => {
    const days = async (extra: Record<string, unknown>) => {
      const res = await create(s.acme, { title: 'Expiry', state: 'draft', ...extra });
      expect(res.status, res.raw).toBe(201);
      const c = await read(s.acme, caseOf(res).id);
      const span = (Date.parse(c.expiresAt) - Date.parse(c.createdAt)) / 86_400_000;
      return [c.settings.expiresInDays, Math.round(span)];
    };
    expect(await days({})).toEqual([30, 30]);
    expect(await days({ presetId: s.acme.presetId })).toEqual([7, 7]);
    expect(await days({ presetId: s.acme.presetId, settings: { expiresInDays: 12 } })).toEqual([
      12, 12,
    ]);
  });

  it('a recipient signs unless told not to, in group 1; activeGroup is the lowest signing group', async () => {
    const res = await create(s.acme, {
      title: 'Signers',
      recipients: [ann, { name: 'Copy', email: 'copy@example.com', signing: false, group: 0 }],
      documents: [byUrl],
    });
    expect(res.body.case).toMatchObject({ activeGroup: 1 });
    const c = await read(s.acme, caseOf(res).id);
    expect(c.recipients.map((r) => [r.signing, r.group])).toEqual([
      [true, 1],
      [false, 0],
    ]);
  });

  it('settings.language follows the company, then Danish; the body’s wins', async () => {
    const language = async (company: StackCompany, settings?: Record<string, unknown>) => {
      const res = await create(company, {
        title: 'Language',
        state: 'draft',
        ...(settings ? { settings } : {}),
      });
      expect(res.status, res.raw).toBe(201);
      const c = await read(company, caseOf(res).id);
      return [c.language, c.settings.language];
    };
    expect(await language(s.acme)).toEqual(['en', 'en']);
    expect(await language(s.globex)).toEqual(['da', 'da']);
    expect(await language(s.globex, { language: 'en' })).toEqual(['en', 'en']);
  });
});

describe('spec 2.2: the answer', () => {
  it('is 201 with Location and exactly the listed members, at every depth', async () => {
    const res = await create(s.acme, {
      title: 'Shape',
      settings: { integrations: { microsoft: { returnPath: '/back' } } },
      recipients: [
        // false: v3 takes no CPR number, so a recipient it must check cannot be made here.
        { ...ann, needsCpr: false },
        { name: 'Bo', type: 'sms', phone: '+4512345678' },
        { name: 'Cy', type: 'eboks', signing: false },
      ],
      documents: [{ name: 'a.pdf', content: pdf }, byUrl],
    });
    expect(res.status, res.raw).toBe(201);
    expect(Object.keys(res.body)).toEqual(['case']);
    const c = caseOf(res) as ReturnType<typeof caseOf> & Record<string, unknown>;
    expect(res.headers.location).toBe(`/v3/api/cases/${c.id}`);
    expect(Object.keys(c).sort()).toEqual(
      ['activeGroup', 'delivery', 'documents', 'id', 'notices', 'recipients'].sort(),
    );
    for (const r of c.recipients) {
      expect(Object.keys(r).sort()).toEqual(['id', 'signingUrl', 'status', 'uid']);
      expect(r.status).toBe('pending');
    }
    for (const d of c.documents) expect(Object.keys(d)).toEqual(['url']);
    expect(c.documents[0]!.url).toMatch(new RegExp(`^${PUBLIC_URL}/files/cases/`));
    expect(c.documents[1]!.url).toBe(byUrl.url);
    const delivery = c.delivery as Record<string, Record<string, unknown>>;
    expect(Object.keys(delivery).sort()).toEqual(['attempted', 'eboks', 'email', 'sms', 'webhook']);
    for (const channel of ['email', 'eboks', 'sms', 'webhook'])
      expect(Object.keys(delivery[channel]!).sort()).toEqual(['attempted', 'ok', 'reason']);
    for (const n of c.notices!)
      expect(Object.keys(n).filter((k) => !['code', 'message', 'using'].includes(k))).toEqual([]);
    expect(res.raw).not.toMatch(
      /signingToken|serviceKey|"cpr"|needsCpr|"signer"|"logs"|"events"|"roles"|__v/,
    );
    // The case reads back as created: the id is the Location's.
    expect((await read(s.acme, c.id)).title).toBe('Shape');
  });

  it('holds no `notices` when there are none', async () => {
    const res = await create(s.acme, {
      title: 'Quiet',
      state: 'draft',
      senderEmail: s.acme.owner.email,
      settings: { signingSchemas: ['draw'] },
    });
    expect(res.status, res.raw).toBe(201);
    expect(Object.keys(res.body.case as object)).not.toContain('notices');
  });
});

describe('spec 7.3: the notices that apply', () => {
  it('sender-defaulted-to-key-creator, default-signing-schemas with `using`, no-sharepoint-integration', async () => {
    const res = await create(s.acme, {
      title: 'Noticed',
      state: 'draft',
      settings: { integrations: { microsoft: { returnPath: '/sites/contracts' } } },
    });
    expect(res.status, res.raw).toBe(201);
    expect(caseOf(res).notices).toEqual([
      {
        code: 'sender-defaulted-to-key-creator',
        message: expect.stringContaining(s.acme.owner.email),
      },
      // This installation serves no eID scheme yet: `draw` (docs/cases.md, Defaults).
      { code: 'default-signing-schemas', message: expect.any(String), using: ['draw'] },
      { code: 'no-sharepoint-integration', message: expect.any(String) },
    ]);
    // The schemes it names are the ones the case keeps.
    expect((await read(s.acme, caseOf(res).id)).settings.signingSchemas).toEqual(['draw']);
  });

  it("a document's notice over HTTP: characters no font draws, at the value's field", async () => {
    const res = await create(s.acme, {
      title: 'Boxes',
      recipients: [ann],
      settings: { signingSchemas: ['draw'] },
      documents: [
        byUrl,
        { ...freshDocx(), tags: [{ tag: 'name', value: 'Ann \ue000', type: 'text' }] },
      ],
    });
    expect(res.status, res.raw).toBe(201);
    expect(
      caseOf(res).notices?.filter((n) => n.code !== 'sender-defaulted-to-key-creator'),
    ).toEqual([
      {
        code: 'characters-not-drawn',
        message: expect.stringContaining('U+E000'),
        field: 'documents[1].tags.name',
        characters: ['\ue000'],
      },
    ]);
  });

  it('names no default-signing-schemas when the body names its schemes', async () => {
    const res = await create(s.acme, {
      title: 'Schemes',
      state: 'draft',
      settings: { signingSchemas: ['draw'] },
    });
    expect(caseOf(res).notices?.map((n) => n.code)).toEqual(['sender-defaulted-to-key-creator']);
  });
});
