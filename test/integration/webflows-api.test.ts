import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../../src/service/companies/index.js';
import { FormRepository, formsFolder, type NewForm } from '../../src/service/forms/index.js';
import { createWebflow, hashWebflowToken } from '../../src/service/webflows/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import {
  caseServer,
  fields,
  startConformanceStack,
  type Answer,
  type ConformanceStack,
} from './cases-conformance-stack.js';

/**
 * POST /v3/api/webflows and GET /v3/api/webflows/{id} (issue 36, part 1) over the server as
 * `docpipe serve` composes it, on a real PostgreSQL and Redis: the answers' shapes, the
 * idempotency rules (replay, conflict, two at once), every slug, and isolation between companies.
 */

let s: ConformanceStack;
let app: HttpApp;

/** Where a form's template is, under the company's forms folder as an import stores it. */
const templateKey = (company: string, id: string) => `${formsFolder(company)}${id}/lease.docx`;

/** A form row of `company`: the survey's three questions, published and web-flow enabled. */
function surveyForm(company: string, id: string, flags: Partial<NewForm> = {}): NewForm {
  return {
    company,
    id,
    title: 'Tenant survey',
    folder: null,
    active: true,
    webflow: true,
    settings: {},
    tags: [
      { _id: 'tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
      { _id: 'rent', name: 'Monthly rent', tag: 'rent', value: 1200, type: 'number' },
      { _id: 'start', name: 'Start date', tag: 'start', value: null, type: 'date' },
    ],
    recipients: [],
    documents: [
      {
        name: 'Lease',
        storageKey: templateKey(company, id),
        kind: 'docx',
        sha256: '0'.repeat(64),
        bytes: 1,
        file: 'lease.docx',
      },
    ],
    ...flags,
  };
}

beforeAll(async () => {
  s = await startConformanceStack();
  const forms = new FormRepository(s.t.db);
  const now = new Date();
  await forms.replace(surveyForm('acme', 'survey'), now);
  await forms.replace(surveyForm('acme', 'inactive', { active: false }), now);
  await forms.replace(surveyForm('acme', 'plain', { webflow: false }), now);
  await forms.replace(surveyForm('globex', 'globex-survey'), now);
  // A flow with `case` copies its form's templates at creation: the survey's must be there.
  await s.stack.storage.put(
    templateKey('acme', 'survey'),
    new Uint8Array([0x50, 0x4b]),
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  );
}, 120_000);
afterAll(async () => {
  await s?.close();
});

let keys = 0;
/** A key of its own for each request that should not replay another. */
const newKey = () => `test-key-${++keys}-${Date.now()}`;

async function post(
  body: unknown,
  options: { key?: string; idempotencyKey?: string | null } = {},
): Promise<Answer> {
  const idempotencyKey = options.idempotencyKey === undefined ? newKey() : options.idempotencyKey;
  const res = await app.inject({
    method: 'POST',
    url: '/v3/api/webflows',
    headers: {
      authorization: `Bearer ${options.key ?? s.acme.key}`,
      ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
    },
    payload: body as object,
  });
  return { status: res.statusCode, headers: res.headers, body: res.json(), raw: res.body };
}

async function get(id: string, key = s.acme.key): Promise<Answer> {
  const res = await app.inject({
    method: 'GET',
    url: `/v3/api/webflows/${id}`,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json(), raw: res.body };
}

const body = (extra: Record<string, unknown> = {}) => ({
  formId: 'survey',
  senderEmail: s.acme.member.email,
  recipients: [
    { name: 'Tenant One', email: 'one@tenant.example', language: 'da' as const },
    { name: 'Tenant Two', email: 'two@tenant.example' },
  ],
  ...extra,
});

const flowsOf = async (company: string) =>
  (
    await s.t.db
      .selectFrom('webflows')
      .select(s.t.db.fn.countAll<string>().as('n'))
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow()
  ).n;

interface FlowAnswer {
  id: string;
  recipients: { id: string }[];
}

/** An invitation delivery has not planned yet: planned when it handles `workflow.created`. */
const notSentYet = { status: 'pending', sentAt: null, error: null };

describe('POST /v3/api/webflows', () => {
  it('creates the flow: 201, Location, the answer shape, nothing answered yet', async () => {
    app = await caseServer(s);
    const r = await post(body({ title: 'Who lives there?', message: 'Please answer' }));
    expect(r.status, r.raw).toBe(201);
    const flow = r.body.webflow as FlowAnswer;
    expect(r.headers.location).toBe(`/v3/api/webflows/${flow.id}`);
    expect(r.body).toEqual({
      webflow: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        state: 'pending',
        formId: 'survey',
        title: 'Who lives there?',
        recipients: [
          {
            id: expect.any(String) as string,
            name: 'Tenant One',
            email: 'one@tenant.example',
            status: 'pending',
            invitation: notSentYet,
          },
          {
            id: expect.any(String) as string,
            name: 'Tenant Two',
            email: 'two@tenant.example',
            status: 'pending',
            invitation: notSentYet,
          },
        ],
        progress: { answered: 0, total: 3 },
        createdAt: expect.any(String) as string,
        updatedAt: expect.any(String) as string,
        delivery: { email: 'pending' },
      },
    });
    const row = await s.t.db
      .selectFrom('webflows')
      .selectAll()
      .where('id', '=', flow.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      company_id: 'acme',
      sender_user_id: s.acme.member.id,
      sender_email: s.acme.member.email,
      message: 'Please answer',
      settings: {
        expiresInDays: 30,
        reminders: { send: false, amount: 3, daysBetween: 7 },
      },
      case_request: null,
    });
    // The form as it was, documents with their template keys.
    expect(row.form).toMatchObject({
      title: 'Tenant survey',
      documents: [{ storageKey: templateKey('acme', 'survey') }],
    });
    const days = (row.expires_at.getTime() - row.created_at.getTime()) / 86_400_000;
    expect(days).toBe(30);
  });

  it('GET answers the flow with its answers and case', async () => {
    app = await caseServer(s);
    const created = await post(body({ settings: { expiresInDays: 3 } }));
    const flow = created.body.webflow as FlowAnswer;
    const r = await get(flow.id);
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toEqual({
      webflow: { ...(created.body.webflow as object), answers: [], caseId: null, caseError: null },
    });
    // An answer someone gave (the page is part 2): counted, and answered as given.
    await s.t.db
      .insertInto('webflow_answers')
      .values({
        flow_id: flow.id,
        tag: 'tenant',
        type: 'text',
        value: JSON.stringify('Ann'),
        answered_by: flow.recipients[1]!.id,
      })
      .execute();
    const after = await get(flow.id);
    const webflow = after.body.webflow as Record<string, unknown>;
    expect(webflow.progress).toEqual({ answered: 1, total: 3 });
    expect(webflow.answers).toEqual([
      {
        tag: 'tenant',
        type: 'text',
        value: 'Ann',
        answeredBy: flow.recipients[1]!.id,
        answeredAt: expect.any(String) as string,
      },
    ]);
  });

  it('stores each link token as its SHA-256 only', async () => {
    app = await caseServer(s);
    const r = await post(body());
    const flow = r.body.webflow as FlowAnswer;
    const rows = await s.t.db
      .selectFrom('webflow_recipients')
      .selectAll()
      .where('flow_id', '=', flow.id)
      .orderBy('position')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.token_sha256).toHaveLength(32);
    expect(rows[0]!.token_sha256.equals(rows[1]!.token_sha256)).toBe(false);
    // A token is 43 base64url characters: no text column of the recipients holds one, and the
    // answer names none.
    expect(r.raw).not.toMatch(/token|[A-Za-z0-9_-]{43}/i);
    for (const row of rows)
      for (const value of Object.values(row))
        if (typeof value === 'string') expect(value).not.toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(rows[0]!).filter((c) => /token/.test(c))).toEqual(['token_sha256']);
    expect(hashWebflowToken('x')).toHaveLength(32);
  });

  it('replays the same key and body: the same flow, 201 again, one row', async () => {
    app = await caseServer(s);
    const key = newKey();
    const before = await flowsOf('acme');
    const first = await post(body(), { idempotencyKey: key });
    // The same body with its members in another order is the same request.
    const { recipients, ...rest } = body();
    const again = await post({ recipients, ...rest }, { idempotencyKey: key });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(Number(await flowsOf('acme'))).toBe(Number(before) + 1);
  });

  it('refuses the same key with another body: 409 idempotency-conflict, nothing made', async () => {
    app = await caseServer(s);
    const key = newKey();
    expect((await post(body(), { idempotencyKey: key })).status).toBe(201);
    const before = await flowsOf('acme');
    const r = await post(body({ title: 'Another' }), { idempotencyKey: key });
    expect(r.status, r.raw).toBe(409);
    expect(r.body.error).toBe('idempotency-conflict');
    expect(fields(r)).toEqual(['Idempotency-Key']);
    expect(await flowsOf('acme')).toBe(before);
    // The key is the company's: another company may use the same one.
    const other = await post(
      { ...body(), formId: 'globex-survey', senderEmail: s.globex.member.email },
      { key: s.globex.key, idempotencyKey: key },
    );
    expect(other.status, other.raw).toBe(201);
  });

  it('makes one flow of two requests with the same key at once', async () => {
    app = await caseServer(s);
    const key = newKey();
    const before = Number(await flowsOf('acme'));
    const [a, b] = await Promise.all([
      post(body(), { idempotencyKey: key }),
      post(body(), { idempotencyKey: key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((a.body.webflow as FlowAnswer).id).toBe((b.body.webflow as FlowAnswer).id);
    expect(Number(await flowsOf('acme'))).toBe(before + 1);
  });

  it('takes a key past its 24 hours again, for a new flow', async () => {
    app = await caseServer(s);
    const key = newKey();
    const first = await post(body(), { idempotencyKey: key });
    await s.t.db
      .updateTable('webflow_idempotency')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('company_id', '=', 'acme')
      .where('key', '=', key)
      .execute();
    const again = await post(body({ title: 'Next year' }), { idempotencyKey: key });
    expect(again.status, again.raw).toBe(201);
    expect((again.body.webflow as FlowAnswer).id).not.toBe((first.body.webflow as FlowAnswer).id);
  });

  it('needs an Idempotency-Key of 1 to 255 visible characters', async () => {
    app = await caseServer(s);
    for (const idempotencyKey of [null, 'with space', 'x'.repeat(256)]) {
      const r = await post(body(), { idempotencyKey });
      expect(r.status, r.raw).toBe(400);
      expect(r.body.error).toBe('validation-failed');
      expect(fields(r)).toEqual(['Idempotency-Key']);
    }
  });

  it('answers form-not-found alike for an absent, another company’s, inactive and not enabled form', async () => {
    app = await caseServer(s);
    const before = await flowsOf('acme');
    const messages = [];
    for (const formId of ['nothing', 'globex-survey', 'inactive', 'plain']) {
      const r = await post(body({ formId }));
      expect(r.status, r.raw).toBe(404);
      expect(r.body.error).toBe('form-not-found');
      expect(fields(r)).toEqual(['formId']);
      messages.push(r.body.details![0]!.message.replace(formId, 'X'));
    }
    expect(new Set(messages).size).toBe(1);
    expect(await flowsOf('acme')).toBe(before);
  });

  it('sends as the key’s user when the body names nobody, with the notice', async () => {
    app = await caseServer(s);
    const { senderEmail: _none, ...rest } = body();
    const r = await post(rest);
    expect(r.status, r.raw).toBe(201);
    expect(r.body.notices).toEqual([
      {
        code: 'sender-defaulted-to-key-creator',
        message: `no sender was given: the web-flow is sent by the key's user ${s.acme.owner.email}`,
      },
    ]);
    const row = await s.t.db
      .selectFrom('webflows')
      .select('sender_user_id')
      .where('id', '=', (r.body.webflow as FlowAnswer).id)
      .executeTakeFirstOrThrow();
    expect(row.sender_user_id).toBe(s.acme.owner.id);
  });

  it('refuses an unknown sender at its field, and a key whose user was removed', async () => {
    app = await caseServer(s);
    const unknown = await post(body({ senderEmail: 'nobody@acme.example' }));
    expect(unknown.status, unknown.raw).toBe(400);
    expect(unknown.body.error).toBe('validation-failed');
    expect(fields(unknown)).toEqual(['senderEmail']);
    const byId = await post(body({ senderEmail: undefined, senderId: s.globex.member.id }));
    expect(fields(byId)).toEqual(['senderId']);

    const users = new UserRepository(s.t.db);
    const gone = await users.add('acme', { email: 'gone@acme.example', name: 'Gone' });
    const key = await s.keys.create({ company: 'acme', user: gone.email, name: 'gone' });
    await users.remove('acme', gone.email);
    const { senderEmail: _none, ...rest } = body();
    // The server's key check refuses such a key at the door, as on every v3 route.
    const r = await post(rest, { key: key.key });
    expect(r.status, r.raw).toBe(403);
    expect(r.body.error).toBe('key-has-no-user');
    // Past the door (the user removed while the request was on its way), the service refuses
    // the flow its sender, and makes nothing.
    const before = await flowsOf('acme');
    const refused = await createWebflow(
      { db: s.t.db, signingSecret: 'test-secret', storage: s.stack.storage },
      { company: 'acme', keyUserId: gone.id, idempotencyKey: newKey(), body: rest },
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({ slug: 'sender-not-in-company' });
    expect(await flowsOf('acme')).toBe(before);
  });

  it('refuses unknown members and names every problem at once, at its path', async () => {
    app = await caseServer(s);
    const r = await post(
      {
        formId: 'survey',
        colour: 'red',
        recipients: [{ name: 'Ann' }, { name: 'Bo', email: 'bo@x.example', language: 'de' }],
        settings: { expiresInDays: 400, reminders: { send: true, often: true } },
      },
      { idempotencyKey: null },
    );
    expect(r.status, r.raw).toBe(400);
    expect(r.body.error).toBe('validation-failed');
    expect(fields(r)).toEqual(
      expect.arrayContaining([
        'colour',
        'recipients[0].email',
        'recipients[1].language',
        'settings.expiresInDays',
        'settings.reminders.often',
        'Idempotency-Key',
      ]),
    );
    const none = await post({ formId: 'survey', recipients: [] });
    expect(fields(none)).toEqual(['recipients']);
  });

  it('checks prefilled tags against the form’s questions and the value parsers, and keeps them unanswered', async () => {
    app = await caseServer(s);
    const bad = await post(
      body({
        tags: [
          { tag: 'start', value: '31/02/2026', type: 'date' },
          { tag: 'rent', value: 'a lot', type: 'text' },
          { tag: 'colour', value: 'red', type: 'text' },
        ],
      }),
    );
    expect(bad.status, bad.raw).toBe(400);
    expect(fields(bad)).toEqual(
      expect.arrayContaining(['tags[0].value', 'tags[1].type', 'tags[2].tag']),
    );
    const good = await post(
      body({
        tags: [
          { tag: 'start', value: '2026-02-01', type: 'date' },
          { tag: 'tenant', value: 'Ann', type: 'text' },
        ],
      }),
    );
    expect(good.status, good.raw).toBe(201);
    expect((good.body.webflow as { progress: unknown }).progress).toEqual({
      answered: 0,
      total: 3,
    });
    const row = await s.t.db
      .selectFrom('webflows')
      .select('form')
      .where('id', '=', (good.body.webflow as FlowAnswer).id)
      .executeTakeFirstOrThrow();
    expect((row.form as { tags: { tag: string; value: unknown }[] }).tags).toEqual([
      expect.objectContaining({ tag: 'tenant', value: 'Ann' }),
      expect.objectContaining({ tag: 'rent', value: 1200 }),
      expect.objectContaining({ tag: 'start', value: '2026-02-01' }),
    ]);
  });

  it('keeps the case member as it was sent', async () => {
    app = await caseServer(s);
    const request = {
      recipients: [{ name: 'Landlord', email: 'landlord@acme.example' }],
      state: 'draft',
    };
    const r = await post(body({ case: request }));
    expect(r.status, r.raw).toBe(201);
    const row = await s.t.db
      .selectFrom('webflows')
      .select('case_request')
      .where('id', '=', (r.body.webflow as FlowAnswer).id)
      .executeTakeFirstOrThrow();
    expect(row.case_request).toEqual(request);
    const wrong = await post(body({ case: { recipients: 'all' } }));
    expect(wrong.status).toBe(400);
    expect(fields(wrong)).toEqual(['case.recipients']);
  });

  it('refuses a case member that could never be made, every problem at once, and makes nothing', async () => {
    app = await caseServer(s);
    const before = await flowsOf('acme');
    const r = await post(
      body({
        case: {
          // Nobody signs (a form submit's recipient copies unless it says signing: true), a CPR
          // number without needsCpr, another in no form, and tags of its own.
          recipients: [
            { name: 'Copy', email: 'copy@acme.example', cpr: '0101901234' },
            { name: 'Also', email: 'also@acme.example', needsCpr: true, cpr: '12' },
          ],
          tags: [{ tag: 'tenant', value: 'x' }],
        },
      }),
    );
    expect(r.status, r.raw).toBe(400);
    expect(r.body.error).toBe('validation-failed');
    expect(fields(r).sort()).toEqual([
      'case.recipients',
      'case.recipients[0].cpr',
      'case.recipients[1].cpr',
      'case.tags',
    ]);
    expect(r.raw).not.toContain('0101901234');
    expect(await flowsOf('acme')).toBe(before);
    // A draft needs no signer yet.
    const draft = await post(
      body({
        case: { recipients: [{ name: 'Copy', email: 'copy@acme.example' }], state: 'draft' },
      }),
    );
    expect(draft.status, draft.raw).toBe(201);
  });
});

describe('GET /v3/api/webflows/{id}', () => {
  it('answers webflow-not-found for a non-uuid, an absent and another company’s id', async () => {
    app = await caseServer(s);
    const theirs = await post(
      { ...body(), formId: 'globex-survey', senderEmail: s.globex.member.email },
      { key: s.globex.key },
    );
    expect(theirs.status, theirs.raw).toBe(201);
    const theirId = (theirs.body.webflow as FlowAnswer).id;
    expect((await get(theirId, s.globex.key)).status).toBe(200);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', theirId]) {
      const r = await get(id);
      expect(r.status, r.raw).toBe(404);
      expect(r.body.error).toBe('webflow-not-found');
      expect(fields(r)).toEqual(['id']);
    }
  });

  it('refuses a flow whose sender was removed from the company: 403 sender-not-in-company', async () => {
    app = await caseServer(s);
    const users = new UserRepository(s.t.db);
    const leaving = await users.add('acme', { email: 'leaving@acme.example', name: 'Leaving' });
    const r = await post(body({ senderEmail: leaving.email }));
    expect(r.status, r.raw).toBe(201);
    const id = (r.body.webflow as FlowAnswer).id;
    expect((await get(id)).status).toBe(200);
    await users.remove('acme', leaving.email);
    const after = await get(id);
    expect(after.status, after.raw).toBe(403);
    expect(after.body.error).toBe('sender-not-in-company');
  });
});

describe('the view reads its delivery from the message ledger and its case error from the flow', () => {
  /** A ledger row of `flow`'s person, as delivery writes one. */
  async function ledgerRow(
    flowId: string,
    personId: string,
    row: {
      kind?: 'flow-invitation' | 'flow-reminder';
      sequence?: number;
      status: 'pending' | 'sent' | 'failed';
      error?: string;
      sentAt?: Date;
      nextAttemptAt?: Date;
    },
  ): Promise<string> {
    const { id } = await s.t.db
      .insertInto('messages')
      .values({
        company_id: 'acme',
        case_id: null,
        recipient_id: null,
        flow_id: flowId,
        flow_recipient_id: personId,
        addressee: personId,
        channel: 'email',
        kind: row.kind ?? 'flow-invitation',
        sequence: row.sequence ?? 0,
        status: row.status,
        to_address: 'someone@tenant.example',
        attempts: row.status === 'pending' ? 0 : 1,
        error: row.error ?? null,
        sent_at: row.sentAt ?? null,
        next_attempt_at: row.nextAttemptAt ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  const invitations = (r: Answer) =>
    (r.body.webflow as { recipients: { invitation: unknown }[] }).recipients.map(
      (p) => p.invitation,
    );
  const delivery = (r: Answer) => (r.body.webflow as { delivery: unknown }).delivery;

  it('answers each invitation as the ledger has it, and the flow failed when one failed for good', async () => {
    app = await caseServer(s);
    const created = await post(body());
    const flow = created.body.webflow as FlowAnswer;
    const [one, two] = flow.recipients.map((r) => r.id) as [string, string];
    const sentAt = new Date('2026-12-01T09:30:00.123Z');
    await ledgerRow(flow.id, one, { status: 'sent', sentAt });
    const failed = await ledgerRow(flow.id, two, {
      status: 'failed',
      error: '550 5.1.1 mailbox unavailable',
    });
    // A reminder's failure is no invitation's: it changes neither.
    await ledgerRow(flow.id, one, {
      kind: 'flow-reminder',
      sequence: 1,
      status: 'failed',
      error: 'x',
    });

    const r = await get(flow.id);
    expect(r.status, r.raw).toBe(200);
    expect(delivery(r)).toEqual({ email: 'failed' });
    expect(invitations(r)).toEqual([
      { status: 'sent', sentAt: sentAt.toISOString(), error: null },
      { status: 'failed', sentAt: null, error: '550 5.1.1 mailbox unavailable' },
    ]);

    // A failed try with a next one to come is not failed yet: pending, with the last error.
    await s.t.db
      .updateTable('messages')
      .set({
        error: 'Greeting never received (ETIMEDOUT)',
        next_attempt_at: new Date(Date.now() + 60_000),
      })
      .where('id', '=', failed)
      .execute();
    const retried = await get(flow.id);
    expect(delivery(retried)).toEqual({ email: 'pending' });
    expect(invitations(retried)).toEqual([
      { status: 'sent', sentAt: sentAt.toISOString(), error: null },
      { status: 'pending', sentAt: null, error: 'Greeting never received (ETIMEDOUT)' },
    ]);
  });

  it('answers sent once no invitation is left to send, and pending while one has no row yet', async () => {
    app = await caseServer(s);
    const flow = (await post(body())).body.webflow as FlowAnswer;
    const [one, two] = flow.recipients.map((r) => r.id) as [string, string];
    const first = new Date('2026-12-02T08:00:00.000Z');
    await ledgerRow(flow.id, one, { status: 'sent', sentAt: first });
    const half = await get(flow.id);
    expect(delivery(half)).toEqual({ email: 'pending' });
    expect(invitations(half)).toEqual([
      { status: 'sent', sentAt: first.toISOString(), error: null },
      notSentYet,
    ]);

    const second = new Date('2026-12-02T08:00:01.500Z');
    await ledgerRow(flow.id, two, { status: 'sent', sentAt: second });
    // Another flow's failed invitation is not this one's.
    const other = (await post(body())).body.webflow as FlowAnswer;
    await ledgerRow(other.id, other.recipients[0]!.id, { status: 'failed', error: 'refused' });
    const all = await get(flow.id);
    expect(all.status, all.raw).toBe(200);
    expect(delivery(all)).toEqual({ email: 'sent' });
    expect(invitations(all)).toEqual([
      { status: 'sent', sentAt: first.toISOString(), error: null },
      { status: 'sent', sentAt: second.toISOString(), error: null },
    ]);
    expect(delivery(await get(other.id))).toEqual({ email: 'failed' });
  });

  it('answers caseError with its slug and details when the completed flow made no case, else null', async () => {
    app = await caseServer(s);
    const created = await post(body());
    const flow = created.body.webflow as FlowAnswer;
    const read = async () => (await get(flow.id)).body.webflow as Record<string, unknown>;
    expect(await read()).toMatchObject({ caseId: null, caseError: null });
    const caseError = {
      slug: 'validation-failed',
      details: [
        { field: 'documents[0].tags[1].value', message: 'rent: not a number' },
        { field: 'recipients[0].email', message: 'not an e-mail address' },
      ],
    };
    await s.t.db
      .updateTable('webflows')
      .set({ state: 'completed', completed_at: new Date(), case_error: JSON.stringify(caseError) })
      .where('id', '=', flow.id)
      .execute();
    const refused = await get(flow.id);
    expect(refused.status, refused.raw).toBe(200);
    expect(refused.body.webflow).toMatchObject({ state: 'completed', caseId: null, caseError });
    // The creation's answer speaks of no case: neither member is in it.
    expect(Object.keys(flow)).not.toContain('caseError');
    expect(Object.keys(flow)).not.toContain('caseId');
  });
});
