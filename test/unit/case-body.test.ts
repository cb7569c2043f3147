import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetSettingsProblems } from '../../src/service/companies/index.js';
import type { CaseInput, CreatedCase } from '../../src/service/cases/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { casesRoutes } from '../../src/surfaces/http/cases/index.js';

/**
 * The v3 case body (spec 2.2) as POST /v3/api/cases checks it, through the route and Fastify's
 * own Ajv (the validator that runs in production), with a case service that records what it is
 * given: every member accepted, every refusal with its path, `unknown field` for every member
 * spec 2.2 does not list (the v2 ones spec 9 names among them), and every problem at once.
 */

const given: CaseInput[] = [];
const created: CreatedCase = {
  case: {
    id: 'c1',
    recipients: [],
    documents: [],
    activeGroup: null,
    delivery: {
      attempted: false,
      email: { ok: true, attempted: false, reason: 'no channel' },
      eboks: { ok: true, attempted: false, reason: 'no channel' },
      sms: { ok: true, attempted: false, reason: 'no channel' },
      webhook: { ok: true, attempted: false, reason: 'no channel' },
    },
  },
  notices: [],
};

let app: HttpApp;
beforeAll(async () => {
  app = createHttpApp({ bodyLimit: 1024 * 1024 });
  app.addHook('onRequest', (request, _reply, done) => {
    request.apiKey = { id: 'k1', company: 'acme', name: 'test', userId: 'u1' };
    done();
  });
  await app.register(casesRoutes, {
    publicUrl: 'https://docpipe.test',
    library: { get: () => Promise.reject(new Error('not called')) },
    cases: {
      createCase: (_company, _creator, body) => {
        given.push(body);
        return Promise.resolve(created);
      },
      getCase: () => Promise.reject(new Error('not called')),
      listCases: () => Promise.reject(new Error('not called')),
      sendCase: () => Promise.reject(new Error('not called')),
    },
  });
});
afterAll(() => app.close());

async function post(body: unknown) {
  const before = given.length;
  const res = await app.inject({ method: 'POST', url: '/v3/api/cases', payload: body as object });
  return { res, reached: given.length > before, json: res.json<Record<string, unknown>>() };
}

/** The details of a refused body, as `field: message` lines. */
async function refused(body: unknown): Promise<string[]> {
  const { res, reached, json } = await post(body);
  expect(res.statusCode, res.body).toBe(400);
  expect(reached).toBe(false);
  expect(json.error).toBe('validation-failed');
  return (json.details as { field: string; message: string }[]).map(
    (d) => `${d.field}: ${d.message}`,
  );
}

const pdf = { name: 'a.pdf', content: 'JVBERi0xLjQK' };
const recipient = { name: 'Ann', email: 'ann@example.com' };

/** A body with every member spec 2.2 lists, each with a sound value. */
const full = {
  title: 'Lease',
  referenceId: 'ref-1',
  state: 'draft',
  folder: 'Contracts',
  presetId: 'p1',
  messageTemplateId: 'm1',
  senderId: 'u1',
  senderEmail: 'boss@example.com',
  tags: [
    { tag: 'tenant', value: 'Ann', type: 'text' },
    { tag: 'start', value: '2026-05-01', type: 'date', format: 'd. MMMM yyyy' },
  ],
  settings: {
    autoSend: true,
    language: 'en-GB',
    expiresInDays: 14,
    reminders: { send: true, amount: 20, daysBetween: 365, autoSend: false },
    template: 2,
    message: 'Please sign',
    signingSchemas: ['urn:grn:authn:dk:mitid:substantial', 'draw'],
    logo: 'https://docpipe.test/files/logo.png',
    integrations: { microsoft: { returnPath: '/sites/x' } },
  },
  recipients: [
    {
      name: 'Ann',
      email: 'ann@example.com',
      signing: false,
      group: 2,
      messageTemplateId: 'm2',
      type: 'sms',
      phone: '+4512345678',
      addPhone: true,
      needsCpr: true,
      signingSchema: 'draw',
      redirectUrl: 'https://example.com/done',
      position: 'CEO',
      message: 'Hello',
      eboks: { method: 'cpr', cvr: '1', kvhx: '2', address: 'x', name: 'Ann' },
    },
  ],
  documents: [
    pdf,
    { name: 'b.pdf', url: 'https://example.com/b.pdf' },
    {
      name: 'lease',
      documentId: 'lease',
      versionId: 'v2',
      tags: [{ tag: 'x', value: 1, type: 'number' }],
    },
    { name: 'lease now', documentId: 'lease' },
  ],
};

describe('POST /v3/api/cases: the body of spec 2.2', () => {
  it('takes every member spec 2.2 lists and hands the body to the service as it came', async () => {
    const { res, reached } = await post(full);
    expect(res.statusCode, res.body).toBe(201);
    expect(reached).toBe(true);
    expect(given.at(-1)).toEqual(full);
    expect(res.headers.location).toBe('/v3/api/cases/c1');
  });

  it('needs nothing but a title (an open case without recipients is the service’s rule 2)', async () => {
    const { res } = await post({ title: 'T' });
    expect(res.statusCode).toBe(201);
    expect(await refused({})).toEqual(['title: is required']);
    expect(await refused({ title: '' })).toEqual(['title: must NOT have fewer than 1 characters']);
    // A recipient needs a name; an e-mail address only by its type (the service's rule 2).
    const sms = await post({
      title: 'T',
      recipients: [{ name: 'A', type: 'sms', phone: '+45 1' }],
    });
    expect(sms.res.statusCode).toBe(201);
    expect(await refused({ title: 'T', recipients: [{ email: 'a@example.com' }] })).toEqual([
      'recipients[0].name: is required',
    ]);
  });

  it.each([
    ['roles', { roles: ['signer'] }, 'roles'],
    ['user_name', { user_name: 'x' }, 'user_name'],
    ['user_email', { user_email: 'x@example.com' }, 'user_email'],
    ['user', { user: 'u1' }, 'user'],
    ['name (v2 title)', { name: 'x' }, 'name'],
    ['autoSend at the top', { autoSend: true }, 'autoSend'],
    ['signingSchemas at the top', { signingSchemas: ['draw'] }, 'signingSchemas'],
    ['signingPage.logo', { signingPage: { logo: 'x' } }, 'signingPage'],
    ['realtime', { realtime: true }, 'realtime'],
    ['type of case', { type: 'simple' }, 'type'],
    ['template', { template: 1 }, 'template'],
    ['emailTemplate', { emailTemplate: 'm1' }, 'emailTemplate'],
    ['customMessage', { customMessage: true }, 'customMessage'],
    ['reminderAutoSend', { reminderAutoSend: true }, 'reminderAutoSend'],
    ['integrations at the top', { integrations: {} }, 'integrations'],
    ['values (v2 body wrapper)', { values: {} }, 'values'],
    ['settings.deletion', { settings: { deletion: { autoDelete: true } } }, 'settings.deletion'],
    [
      'settings.allowRecipientsViewOthers',
      { settings: { allowRecipientsViewOthers: true } },
      'settings.allowRecipientsViewOthers',
    ],
    ['settings.lang', { settings: { lang: 'da' } }, 'settings.lang'],
    ['settings.availability', { settings: { availability: { days: 9 } } }, 'settings.availability'],
    ['settings.allowedRoles', { settings: { allowedRoles: [] } }, 'settings.allowedRoles'],
    ['settings.reminders.x', { settings: { reminders: { every: 1 } } }, 'settings.reminders.every'],
    [
      'settings.integrations.x',
      { settings: { integrations: { google: {} } } },
      'settings.integrations.google',
    ],
    [
      'settings.integrations.microsoft.x',
      { settings: { integrations: { microsoft: { site: 'x' } } } },
      'settings.integrations.microsoft.site',
    ],
    ['recipient order', { recipients: [{ ...recipient, order: 1 }] }, 'recipients[0].order'],
    [
      'recipient template',
      { recipients: [{ ...recipient, template: 'm' }] },
      'recipients[0].template',
    ],
    ['recipient cpr', { recipients: [{ ...recipient, cpr: '0101011234' }] }, 'recipients[0].cpr'],
    [
      'recipient signingToken',
      { recipients: [{ ...recipient, signingToken: 't' }] },
      'recipients[0].signingToken',
    ],
    [
      'recipient eboks.x',
      { recipients: [{ ...recipient, eboks: { cpr: '1' } }] },
      'recipients[0].eboks.cpr',
    ],
    ['document_id', { documents: [{ ...pdf, document_id: 'd' }] }, 'documents[0].document_id'],
    ['document file', { documents: [{ ...pdf, file: 'x' }] }, 'documents[0].file'],
    [
      'document fileIsBlob',
      { documents: [{ ...pdf, fileIsBlob: true }] },
      'documents[0].fileIsBlob',
    ],
    [
      'a TagInput member',
      { tags: [{ tag: 't', value: 1, type: 'number', fromat: 'x' }] },
      'tags[0].fromat',
    ],
  ])('refuses %s as an unknown field at its path', async (_what, extra, path) => {
    expect(await refused({ title: 'T', ...extra })).toEqual([`${path}: unknown field`]);
  });

  it.each([
    ['title', { title: 5 }, 'title: must be string'],
    ['state', { state: 'sent' }, 'state: must be one of "draft", "open"'],
    ['senderEmail', { senderEmail: 'boss' }, 'senderEmail: must match format "email"'],
    ['folder', { folder: '' }, 'folder: must NOT have fewer than 1 characters'],
    ['tags', { tags: {} }, 'tags: must be array'],
    ['a TagInput', { tags: [{ tag: 't', value: 1 }] }, 'tags[0].type: is required'],
    ['settings', { settings: [] }, 'settings: must be object'],
    ['autoSend', { settings: { autoSend: 'yes' } }, 'settings.autoSend: must be boolean'],
    ['expiresInDays', { settings: { expiresInDays: 0 } }, 'settings.expiresInDays: must be >= 1'],
    [
      'expiresInDays',
      { settings: { expiresInDays: 1.5 } },
      'settings.expiresInDays: must be integer',
    ],
    [
      'amount',
      { settings: { reminders: { amount: 21 } } },
      'settings.reminders.amount: must be <= 20',
    ],
    [
      'amount',
      { settings: { reminders: { amount: 0 } } },
      'settings.reminders.amount: must be >= 1',
    ],
    [
      'daysBetween',
      { settings: { reminders: { daysBetween: 366 } } },
      'settings.reminders.daysBetween: must be <= 365',
    ],
    ['template', { settings: { template: -1 } }, 'settings.template: must be >= 0'],
    [
      'signingSchemas',
      { settings: { signingSchemas: ['draw', 'urn:grn:authn:no:bankid'] } },
      'settings.signingSchemas[1]: must be one of "urn:grn:authn:dk:mitid:low", "urn:grn:authn:dk:mitid:substantial", "urn:grn:authn:dk:mitid:business", "urn:grn:authn:se:bankid", "urn:grn:authn:de:personalausweis", "draw"',
    ],
    ['logo', { settings: { logo: '' } }, 'settings.logo: must NOT have fewer than 1 characters'],
    [
      'returnPath',
      { settings: { integrations: { microsoft: { returnPath: 'sites' } } } },
      'settings.integrations.microsoft.returnPath: must match pattern "^/"',
    ],
    [
      'language',
      { settings: { language: 'xx' } },
      'settings.language: locale "xx" is not supported (supported: da, en, sv, nb, nn, no, de, fi, with an optional region)',
    ],
    ['recipients', { recipients: {} }, 'recipients: must be array'],
    [
      'recipient name',
      { recipients: [{ email: 'a@example.com' }] },
      'recipients[0].name: is required',
    ],
    [
      'recipient email format',
      { recipients: [{ ...recipient, email: 'ann' }] },
      'recipients[0].email: must match format "email"',
    ],
    [
      'recipient type phone (v2)',
      { recipients: [{ ...recipient, type: 'phone' }] },
      'recipients[0].type: must be one of "email", "sms", "eboks"',
    ],
    [
      'recipient signing',
      { recipients: [{ ...recipient, signing: 'no' }] },
      'recipients[0].signing: must be boolean',
    ],
    [
      'recipient group',
      { recipients: [{ ...recipient, group: -1 }] },
      'recipients[0].group: must be >= 0',
    ],
    [
      'recipient redirectUrl',
      { recipients: [{ ...recipient, redirectUrl: 'not a url' }] },
      'recipients[0].redirectUrl: must match format "uri"',
    ],
    [
      'recipient signingSchema',
      { recipients: [{ ...recipient, signingSchema: 'pen' }] },
      'recipients[0].signingSchema: must be one of "urn:grn:authn:dk:mitid:low", "urn:grn:authn:dk:mitid:substantial", "urn:grn:authn:dk:mitid:business", "urn:grn:authn:se:bankid", "urn:grn:authn:de:personalausweis", "draw"',
    ],
    ['document name', { documents: [{ content: 'JVBERi0=' }] }, 'documents[0].name: is required'],
    [
      'document url',
      { documents: [{ name: 'a', url: 'no scheme' }] },
      'documents[0].url: must match format "uri"',
    ],
    [
      'no source',
      { documents: [{ name: 'a' }] },
      'documents[0]: needs one source: content, url or documentId',
    ],
    [
      'two sources',
      { documents: [{ ...pdf, url: 'https://example.com/a.pdf' }] },
      'documents[0]: has content and url: give exactly one source of content, url or documentId',
    ],
    [
      'versionId without documentId',
      { documents: [{ ...pdf, versionId: 'v1' }] },
      'documents[0].versionId: goes with documentId: it names a version of that library document',
    ],
  ])('refuses a bad %s with its path', async (_what, extra, line) => {
    expect(await refused({ title: 'T', ...extra })).toEqual([line]);
  });

  it('reports every problem at once: the schema’s and the rules’ in one answer', async () => {
    const details = await refused({
      roles: [],
      state: 'sent',
      settings: { deletion: {}, language: 'xx', reminders: { amount: 99 } },
      recipients: [{ name: 'A', email: 'a', order: 1 }],
      documents: [
        { name: 'a' },
        { name: 'b', content: 'x', url: 'https://e.com/x', document_id: 'd' },
      ],
    });
    expect(details.sort()).toEqual(
      [
        'title: is required',
        'roles: unknown field',
        'state: must be one of "draft", "open"',
        'settings.deletion: unknown field',
        'settings.reminders.amount: must be <= 20',
        'settings.language: locale "xx" is not supported (supported: da, en, sv, nb, nn, no, de, fi, with an optional region)',
        'recipients[0].order: unknown field',
        'recipients[0].email: must match format "email"',
        'documents[1].document_id: unknown field',
        'documents[0]: needs one source: content, url or documentId',
        'documents[1]: has content and url: give exactly one source of content, url or documentId',
      ].sort(),
    );
  });

  it('refuses a body that is not an object, and a query parameter', async () => {
    expect(await refused([])).toEqual(['body: must be object']);
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/cases?dryRun=1',
      payload: { title: 'T' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation-failed',
      details: [{ field: 'dryRun', message: 'unknown field' }],
    });
  });
});

describe('the case settings and the preset settings: one contract', () => {
  // A preset holds case settings (src/service/companies/preset-settings.ts checks them when it is
  // added): whatever one refuses the other refuses, at the same path.
  it.each([
    [{ autoSend: true, expiresInDays: 3, reminders: { amount: 20, daysBetween: 1 } }, []],
    [{ signingSchemas: ['draw', 'urn:grn:authn:se:bankid'], template: 0, message: '' }, []],
    [{ language: 'de-AT', logo: 'x', integrations: { microsoft: { returnPath: '/a' } } }, []],
    [{ deletion: {} }, ['settings.deletion']],
    [{ allowRecipientsViewOthers: false }, ['settings.allowRecipientsViewOthers']],
    [{ lang: 'da' }, ['settings.lang']],
    [{ expiresInDays: 0 }, ['settings.expiresInDays']],
    [
      { reminders: { amount: 21, daysBetween: 0, x: 1 } },
      ['settings.reminders.amount', 'settings.reminders.daysBetween', 'settings.reminders.x'],
    ],
    [{ template: -1 }, ['settings.template']],
    [{ language: 'xx' }, ['settings.language']],
    [{ logo: '' }, ['settings.logo']],
    [
      { integrations: { microsoft: { returnPath: 'a' } } },
      ['settings.integrations.microsoft.returnPath'],
    ],
    [{ autoSend: 1 }, ['settings.autoSend']],
  ])('%j', async (settings, paths) => {
    expect(
      presetSettingsProblems(settings)
        .map((p) => p.path)
        .sort(),
    ).toEqual([...paths].sort());
    const { res, json } = await post({ title: 'T', settings });
    if (paths.length === 0) expect(res.statusCode).toBe(201);
    else {
      const fields = (json.details as { field: string }[]).map((d) => d.field);
      expect(fields.sort()).toEqual([...paths].sort());
    }
  });

  it('refuses an unknown signing scheme in both', async () => {
    const settings = { signingSchemas: ['pen'] };
    expect(presetSettingsProblems(settings).map((p) => p.path)).toEqual([
      'settings.signingSchemas',
    ]);
    const { json } = await post({ title: 'T', settings });
    expect((json.details as { field: string }[]).map((d) => d.field)).toEqual([
      'settings.signingSchemas[0]',
    ]);
  });
});
