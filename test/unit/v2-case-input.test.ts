import { describe, expect, it } from 'vitest';
import { isDocpipeError, type FailureDetail } from '../../src/base/errors/index.js';
import {
  V2_POLICY,
  checkV2Body,
  createV2Case,
  v2CaseInput,
  v2RecipientInput,
  v2Settings,
  type CaseInput,
  type CaseService,
  type V2CaseBody,
} from '../../src/service/cases/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';

/**
 * The v2 case body (spec 4.2, 2.1) as the service checks and maps it to the v3 create path's
 * input (spec 9's table, row by row), with no database: what each v2 member becomes, the policy
 * of v2's behaviour differences, and every refusal at its v2 path.
 */

const PDF = Buffer.from('%PDF-1.4 ...').toString('base64');

function base(extra: Partial<V2CaseBody> = {}): V2CaseBody {
  return {
    title: 'Lease',
    settings: {},
    recipients: [{ name: 'Ann', email: 'ann@example.com' }],
    documents: [{ name: 'lease.pdf', file: PDF, fileIsBlob: true }],
    ...extra,
  };
}

function problems(raw: unknown): FailureDetail[] {
  try {
    checkV2Body(raw);
  } catch (err) {
    if (isDocpipeError(err)) return err.details;
    throw err;
  }
  return [];
}

describe('spec 9 mapping rows', () => {
  const rows: [string, Partial<V2CaseBody>, Partial<CaseInput>][] = [
    ['title', { title: 'T' }, { title: 'T' }],
    ['name', { title: undefined, name: 'N' }, { title: 'N' }],
    ['autoSend', { autoSend: true }, { settings: { autoSend: true } }],
    ['settings.lang', { settings: { lang: 'en' } }, { settings: { language: 'en' } }],
    [
      'settings.availability.days',
      { settings: { availability: { days: 12 } } },
      { settings: { expiresInDays: 12 } },
    ],
    [
      'reminderAutoSend',
      { reminderAutoSend: true },
      { settings: { reminders: { autoSend: true } } },
    ],
    ['template', { template: 3 }, { settings: { template: 3 } }],
    ['emailtemplate', { emailtemplate: 'm1' }, { messageTemplateId: 'm1' }],
    ['emailTemplate', { emailTemplate: 'm2' }, { messageTemplateId: 'm2' }],
    [
      'customMessage with message',
      { customMessage: true, message: 'Hi' },
      { settings: { message: 'Hi' } },
    ],
    ['user', { user: 'u-1' }, { senderId: 'u-1' }],
    ['user_email', { user_email: 'boss@example.com' }, { senderEmail: 'boss@example.com' }],
    ['signingSchemas', { signingSchemas: ['draw'] }, { settings: { signingSchemas: ['draw'] } }],
    ['signingPage.logo', { signingPage: { logo: 'aGk=' } }, { settings: { logo: 'aGk=' } }],
    [
      'integrations.microsoft.returnPath',
      { integrations: { microsoft: { returnPath: '/x' } } },
      { settings: { integrations: { microsoft: { returnPath: '/x' } } } },
    ],
  ];
  it.each(rows)('%s', (_row, v2, v3) => {
    const { input } = v2CaseInput(base(v2));
    expect(input).toMatchObject(v3);
  });

  it('recipient group or order, template, type phone', () => {
    expect(v2RecipientInput({ name: 'A', order: 2 })).toEqual({ name: 'A', group: 2 });
    expect(v2RecipientInput({ name: 'A', order: 2, group: 3 })).toMatchObject({ group: 3 });
    expect(v2RecipientInput({ name: 'A', template: 't' })).toEqual({
      name: 'A',
      messageTemplateId: 't',
    });
    expect(v2RecipientInput({ name: 'A', type: 'phone', phone: '+45' })).toMatchObject({
      type: 'sms',
    });
    // signing stays absent: the policy gives v2's default.
    expect(v2RecipientInput({ name: 'A' })).not.toHaveProperty('signing');
  });

  it('document file with fileIsBlob true is content, false a url, name defaulted', () => {
    const { input } = v2CaseInput(
      base({
        documents: [
          { file: PDF, fileIsBlob: true },
          { name: 'Ref', file: 'https://example.com/a.pdf', fileIsBlob: false },
          { file: 'https://example.com/b.pdf' },
        ],
      }),
    );
    expect(input.documents).toEqual([
      { name: 'Document 1', content: PDF },
      { name: 'Ref', url: 'https://example.com/a.pdf' },
      { name: 'Document 3', url: 'https://example.com/b.pdf' },
    ]);
  });

  it('user names the sender; user_email is then only what the case shows', () => {
    const { input, policy } = v2CaseInput(
      base({ user: 'u-1', user_email: 'shown@example.com', user_name: 'Shown' }),
    );
    expect(input.senderId).toBe('u-1');
    expect(input.senderEmail).toBeUndefined();
    expect(policy.senderAs).toEqual({ name: 'Shown', email: 'shown@example.com' });
  });

  it('the policy: default folder, signing false, 90 days, Danish, sender fallback', () => {
    expect(v2CaseInput(base()).policy).toMatchObject({
      unknownFolder: 'default-folder',
      unknownSenderEmail: 'key-user',
      defaultSigning: false,
      defaultExpiresInDays: 90,
      defaultLanguage: 'da',
    });
    expect(V2_POLICY.defaultSigning).toBe(false);
  });

  it('keeps the settings v3 does not take, beside the mapped ones', () => {
    const { input, policy } = v2CaseInput(
      base({
        settings: {
          lang: 'en',
          deletion: { autoDelete: true, days: 5 },
          allowRecipientsViewOthers: true,
          availability: { days: 9, unlimited: false },
          custom: 'x',
        } as V2CaseBody['settings'],
      }),
    );
    expect(input.settings).toEqual({ language: 'en', expiresInDays: 9 });
    expect(policy.keptSettings).toEqual({
      deletion: { autoDelete: true, days: 5 },
      allowRecipientsViewOthers: true,
      availability: { unlimited: false },
      custom: 'x',
    });
  });

  it('v2Settings names language and expiry as v2 does', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(
      v2Settings(
        { language: 'da', expiresInDays: 90, signingSchemas: ['draw'], deletion: { days: 1 } },
        'open',
        at,
        new Date('2025-12-01T00:00:00Z'),
      ),
    ).toEqual({
      deletion: { days: 1 },
      lang: 'da',
      availability: { days: 90, expiration: at.toISOString(), isExpired: false },
    });
  });
});

describe('the v2 check', () => {
  it('takes extra members and body.values', () => {
    expect(problems({ ...base(), roles: ['x'], realtime: true })).toEqual([]);
    const checked = checkV2Body({ values: base() });
    expect(checked.wrapped).toBe(true);
    expect(checked.body.title).toBe('Lease');
  });

  it('lists every problem at once, at v2 paths', () => {
    const found = problems({
      settings: { lang: 'xx-nope', availability: { days: 0 } },
      recipients: [{ email: 'not-an-email', cpr: '0101011234' }],
      documents: [{ document_id: 'd1' }, { name: 'x' }],
      emailtemplate: 'a',
      emailTemplate: 'b',
    });
    const fields = found.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'title',
        'settings.availability.days',
        'settings.lang',
        'recipients[0].name',
        'recipients[0].email',
        'recipients[0].cpr',
        'documents[0].document_id',
        'documents[1].file',
        'emailTemplate',
      ]),
    );
    expect(found.find((p) => p.field === 'documents[0].document_id')?.message).toMatch(
      /not supported.*upload the file/,
    );
  });

  it('says a wrapped body’s problems under values', () => {
    expect(problems({ values: { settings: {} } }).map((p) => p.field)).toContain('values.title');
  });
});

describe('createV2Case', () => {
  it('names the v2 members in a failure of the create path', async () => {
    const cases = {
      createCase: () =>
        Promise.reject(
          new DocpipeError('message-template-not-found', [
            { field: 'messageTemplateId', message: 'no such template' },
            { field: 'recipients[0].messageTemplateId', message: 'no such template' },
            { field: 'documents[0].content', message: 'is not base64' },
            { field: 'settings.signingSchemas[0]', message: 'not served' },
          ]),
        ),
      getCase: () => Promise.reject(new Error('not reached')),
    } as unknown as Pick<CaseService, 'createCase' | 'getCase'>;
    const body = base({
      emailtemplate: 'm',
      recipients: [{ name: 'A', email: 'a@example.com', template: 't' }],
    });
    const err = await createV2Case(
      cases,
      'acme',
      { id: 'k' },
      { values: body },
      {
        publicUrl: 'https://x.test',
      },
    ).catch((e: unknown) => e);
    expect(isDocpipeError(err) && err.details.map((d) => d.field)).toEqual([
      'values.emailtemplate',
      'values.recipients[0].template',
      'values.documents[0].file',
      'values.signingSchemas[0]',
    ]);
  });
});
